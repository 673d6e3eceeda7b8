import type { Counters, ServiceRuntime } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { RunStore } from '../db/runs';
import type { ScheduleStore } from '../db/schedules';
import type { InvoiceApi } from './invoice-api';

export interface RecurringDeps {
  schedules: ScheduleStore;
  runs: RunStore;
  counters: Counters;
  /** Change in one transaction (a run settled with its schedule). */
  commit: ServiceRuntime['commit'];
  logger: Logger;
  invoiceApi: InvoiceApi;
  /** The clock: runs fall due, leases expire and periods are dated by it (tests move it). */
  now: () => Date;
  leaseMs: number;
  jobWaitMs: number;
}
