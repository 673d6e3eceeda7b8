import type { EventEmitter } from 'node:events';
import type { Connection } from 'mongoose';
import type { Outbox, OutboxRelay } from '@inv/outbox';
import type { AppBus, Counters } from '@inv/runtime';
import type { InvoicesRepo } from '../db/invoices';
import type { JobsRepo } from '../db/jobs';

export interface InvoiceDeps {
  conn: Connection;
  invoices: InvoicesRepo;
  jobs: JobsRepo;
  counters: Counters;
  outbox: Outbox;
  relay: () => OutboxRelay;
  bus: AppBus;
  defaultTemplateId: number;
  now: () => Date;
  /** Emits a job id whenever this process changed that job's status (wakes long-polling requests). */
  jobSignals: EventEmitter;
}
