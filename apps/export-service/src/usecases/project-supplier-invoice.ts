import type { EventOf } from '@inv/runtime';
import type { ExportDeps } from '../support/deps';

/**
 * A received e-invoice that passed validation enters the export's read model (for the supplier bookings); one that
 * did not is not booked, nor is one flagged as a duplicate of an earlier received document (same supplier, same
 * number: `duplicateOf`), which would book the same invoice twice. At most once per envelope id; idempotent by the
 * received document's id.
 */
export async function projectReceivedInvoice(deps: ExportDeps, msg: EventOf<'inbound.received.v1'>) {
  const d = msg.data;
  if (!d.valid || !d.issueDate || d.duplicateOf !== undefined) return; // nothing to book: no inbox entry needed either
  await deps.commitOnce(msg, async (session) => {
    await deps.supplierInvoices.received(
      msg.companyId,
      {
        inboundId: d.inboundId,
        number: d.number ?? String(d.inboundId),
        issueDate: d.issueDate!,
        ...(d.typeCode ? { typeCode: d.typeCode } : {}),
        ...(d.supplierId !== undefined ? { supplierId: d.supplierId } : {}),
        ...(d.sellerName ? { sellerName: d.sellerName } : {}),
        ...(d.sellerVatId ? { sellerVatId: d.sellerVatId } : {}),
        ...(d.totalGross ? { totalGross: d.totalGross } : {}),
        ...(d.currency ? { currency: d.currency } : {}),
        ...(d.totalVat ? { totalVat: d.totalVat } : {}),
        ...(d.taxCurrency && d.totalVatTaxCurrency ? { taxCurrency: d.taxCurrency, totalVatTaxCurrency: d.totalVatTaxCurrency } : {}),
        vatBreakdown: d.vatBreakdown ?? [],
        ...(d.original ? { original: d.original } : {}),
      },
      deps.now(),
      session,
    );
  });
}

/** A received e-invoice was deleted (it had not been exported): it leaves the read model (kept as a deletion marker). */
export async function projectDeletedInvoice(deps: ExportDeps, msg: EventOf<'inbound.deleted.v1'>) {
  await deps.commitOnce(msg, (session) =>
    deps.supplierInvoices.deleted(msg.companyId, msg.data.inboundId, deps.now(), session).then(() => undefined),
  );
}
