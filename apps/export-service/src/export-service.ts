import { connectObjectStore } from '@inv/objects';
import { createCounters, createServiceRuntime } from '@inv/runtime';
import type { ExportConfig } from './config';
import { handleRunExport } from './consumers/export.run-export';
import { invoiceFinalizedHandler } from './consumers/invoice.finalized';
import { onInvoiceStatusChanged } from './consumers/invoice.status-changed';
import { onPaymentRecorded } from './consumers/invoice.payment-recorded';
import { onPaymentReversed } from './consumers/invoice.payment-reversed';
import { onInboundReceived } from './consumers/inbound.received';
import { onInboundDeleted } from './consumers/inbound.deleted';
import { downloadsRepo } from './db/downloads';
import { exportConfigRepo } from './db/export-config';
import { exportInvoicesRepo } from './db/export-invoices';
import { exportJobsRepo } from './db/export-jobs';
import { exportPaymentsRepo } from './db/export-payments';
import { exportSupplierInvoicesRepo } from './db/export-supplier-invoices';
import { mappingsRepo } from './db/mappings';
import { acctexpRoutes } from './http/acctexp.routes';
import { exportRoutes } from './http/exports.routes';
import type { ExportDeps } from './support/deps';

export { exportConfig, type ExportConfig } from './config';

/**
 * Accounting export (DATEV EXTF): its own read model of finalized invoices and credit notes (fed by invoice
 * events), configuration and account mappings, export jobs run from the bus, ZIP downloads in object storage.
 */
export async function createExportService(config: ExportConfig) {
  const objects = await connectObjectStore(config);
  const rt = await createServiceRuntime({
    service: 'export-service',
    database: 'invoicing_export',
    port: config.PORT,
    env: config,
    testFiles: objects,
  });
  const deps: ExportDeps = {
    config: exportConfigRepo(rt.conn),
    mappings: mappingsRepo(rt.conn),
    invoices: exportInvoicesRepo(rt.conn),
    payments: exportPaymentsRepo(rt.conn),
    supplierInvoices: exportSupplierInvoicesRepo(rt.conn),
    jobs: exportJobsRepo(rt.conn),
    downloads: downloadsRepo(rt.conn),
    counters: createCounters(rt.conn),
    commit: rt.commit,
    commitOnce: rt.commitOnce,
    commitAllOnce: rt.commitAllOnce,
    objects,
    logger: rt.logger,
    maxAttempts: config.BUS_RETRY_DELAYS_MS.length + 1,
    presignTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS,
    now: () => new Date(),
  };
  await Promise.all([
    deps.invoices.init(),
    deps.payments.init(),
    deps.supplierInvoices.init(),
    deps.jobs.init(),
    deps.downloads.init(),
    deps.config.init(),
    deps.mappings.init(),
  ]);

  rt.app.use(acctexpRoutes(deps));
  rt.app.use(exportRoutes(deps));
  const onInvoiceFinalized = invoiceFinalizedHandler(deps);
  rt.bus.onEvent('export-read-model', ['invoice.finalized.v1', 'invoice.status-changed.v1'], (msg) =>
    msg.type === 'invoice.finalized.v1' ? onInvoiceFinalized(msg) : onInvoiceStatusChanged(deps, msg),
  );
  rt.bus.onEvent('export-payments', ['invoice.payment-recorded.v1', 'invoice.payment-reversed.v1'], (msg) =>
    msg.type === 'invoice.payment-recorded.v1' ? onPaymentRecorded(deps, msg) : onPaymentReversed(deps, msg),
  );
  rt.bus.onEvent('export-supplier-invoices', ['inbound.received.v1', 'inbound.deleted.v1'], (msg) =>
    msg.type === 'inbound.received.v1' ? onInboundReceived(deps, msg) : onInboundDeleted(deps, msg),
  );
  rt.bus.onCommand('export.run-export.v1', (msg, ctx) => handleRunExport(deps, msg, ctx.attempt));

  return {
    runtime: rt,
    deps,
    start: () => rt.start(),
    stop: () => rt.stop(),
  };
}
