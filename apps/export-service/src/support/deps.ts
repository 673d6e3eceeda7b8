import type { Changes } from '@inv/outbox';
import type { ObjectStore } from '@inv/objects';
import type { Counters } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { DownloadsRepo } from '../db/downloads';
import type { ExportConfigRepo } from '../db/export-config';
import type { ExportInvoicesRepo } from '../db/export-invoices';
import type { ExportJobsRepo } from '../db/export-jobs';
import type { ExportPaymentsRepo } from '../db/export-payments';
import type { ExportSupplierInvoicesRepo } from '../db/export-supplier-invoices';
import type { MappingsRepo } from '../db/mappings';

export interface ExportDeps {
  config: ExportConfigRepo;
  mappings: MappingsRepo;
  invoices: ExportInvoicesRepo;
  /** Payments on issued invoices (with Skonto), for the payment bookings. */
  payments: ExportPaymentsRepo;
  /** Received (supplier) invoices, for the supplier bookings. */
  supplierInvoices: ExportSupplierInvoicesRepo;
  jobs: ExportJobsRepo;
  downloads: DownloadsRepo;
  counters: Counters;
  /** A change and the messages it causes, committed together (the outbox). */
  commit: Changes['commit'];
  /** `commit` at most once per received message (projections of invoice events). */
  commitOnce: Changes['commitOnce'];
  /** `commitOnce` for a batch of received messages (groupCommit). */
  commitAllOnce: Changes['commitAllOnce'];
  objects: ObjectStore;
  logger: Logger;
  /** Attempts of the run command before the job is failed for good (bus retries + 1). */
  maxAttempts: number;
  presignTtlSeconds: number;
  now: () => Date;
}
