import type { EventEmitter } from 'node:events';
import type { ObjectStore } from '@inv/objects';
import type { Changes } from '@inv/outbox';
import type { AppBus, Counters } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { InboundDocuments } from '../db/inbound-documents';
import type { Suppliers } from '../db/suppliers';
import type { AttachmentLimits } from '../domain/attachments';
import type { DocumentScheduler } from '../workers/document-scheduler';
import type { Inspector } from '../inspection/inspector';

export interface InboundDeps {
  documents: InboundDocuments;
  suppliers: Suppliers;
  counters: Counters;
  /** A change and the messages it causes, committed together (the outbox). */
  commit: Changes['commit'];
  /** RPC to document-service (the rendered view of a received XML). */
  bus: Pick<AppBus, 'callRpc'>;
  objects: ObjectStore;
  inspector: Inspector;
  /** Received documents are read one at a time, companies in turn, at most INBOUND_CPU_SHARE of a core. */
  scheduler: Pick<DocumentScheduler, 'enqueue'>;
  logger: Logger;
  /** Attempts at reading a document before its job is failed for good (BUS_RETRY_DELAYS_MS + 1), and the delays between. */
  maxAttempts: number;
  retryDelaysMs: readonly number[];
  /** How long a claimed job is held (longer than a reading may take): after it, a crashed holder's job is taken up again. */
  leaseMs: number;
  presignTtlSeconds: number;
  /** Embedded attachments of a received document decoded and stored at most (more: a warning). */
  attachmentLimits: AttachmentLimits;
  /** This process's ends of jobs (event: `<company>:<id>`), waking the long polls waiting for them. */
  jobSignals: EventEmitter;
  now: () => Date;
}
