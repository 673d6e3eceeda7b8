import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import type { ExportSupplierInvoice } from '../domain/export-payment';

/**
 * The export's read model of received (supplier) invoices, fed by inbound.received (valid documents only) and
 * inbound.deleted. A deleted document stays as a marker (`deleted`) so a late received event does not bring it back;
 * deleted ones are never exported. `exportedBy` as for payments.
 */
export interface ExportSupplierInvoiceDoc extends ExportSupplierInvoice {
  _id: string; // `${companyId}:${inboundId}`
  companyId: CompanyId;
  deleted: boolean;
  exportedBy?: string;
  updatedAt: Date;
}

const schema = new Schema<ExportSupplierInvoiceDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    inboundId: { type: Number, required: true },
    number: String,
    issueDate: String,
    typeCode: String,
    supplierId: Number,
    sellerName: String,
    sellerVatId: String,
    totalGross: String,
    currency: String,
    totalVat: String,
    taxCurrency: String,
    totalVatTaxCurrency: String,
    vatBreakdown: [{ _id: false, category: String, rate: String, net: String, vat: String }],
    original: { type: { _id: false, key: String, filename: String, contentType: String, size: Number }, default: undefined },
    deleted: { type: Boolean, required: true },
    exportedBy: String,
    updatedAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, issueDate: 1, inboundId: 1 });
schema.index({ companyId: 1, exportedBy: 1 });

export interface SupplierPeriodQuery {
  from: string;
  to: string;
  onlyJob?: string;
}

export function exportSupplierInvoicesRepo(conn: Connection) {
  const model = conn.model<ExportSupplierInvoiceDoc>('ExportSupplierInvoice', schema, 'export_supplier_invoices');
  const idOf = (companyId: CompanyId, inboundId: number) => `${companyId}:${inboundId}`;
  const live = (companyId: CompanyId, from: string, to: string) => ({ companyId, deleted: false, issueDate: { $gte: from, $lte: to } });
  return {
    init: () => model.init().then(() => undefined),
    /** A received document: stored (a redelivery writes the same); one deleted before stays deleted. */
    received: (companyId: CompanyId, s: ExportSupplierInvoice, now: Date, session: ClientSession) =>
      model.updateOne(
        { _id: idOf(companyId, s.inboundId), companyId },
        { $set: { ...s, updatedAt: now }, $setOnInsert: { deleted: false } },
        { upsert: true, session },
      ),
    deleted: (companyId: CompanyId, inboundId: number, now: Date, session: ClientSession) =>
      model.updateOne(
        { _id: idOf(companyId, inboundId), companyId },
        { $set: { deleted: true, updatedAt: now }, $setOnInsert: { inboundId } },
        { upsert: true, session },
      ),
    claimUnexported: (companyId: CompanyId, jobId: string, from: string, to: string) =>
      model.updateMany({ ...live(companyId, from, to), exportedBy: { $exists: false } }, { $set: { exportedBy: jobId } }),
    releaseClaims: (companyId: CompanyId, jobId: string) =>
      model.updateMany({ companyId, exportedBy: jobId }, { $unset: { exportedBy: 1 } }),
    /** The period's received invoices in booking order (issue date, inbound id). */
    inPeriod: (companyId: CompanyId, q: SupplierPeriodQuery) =>
      model
        .find({ ...live(companyId, q.from, q.to), ...(q.onlyJob ? { exportedBy: q.onlyJob } : {}) })
        .sort({ issueDate: 1, inboundId: 1 })
        .lean<ExportSupplierInvoiceDoc[]>(),
  };
}
export type ExportSupplierInvoicesRepo = ReturnType<typeof exportSupplierInvoicesRepo>;
