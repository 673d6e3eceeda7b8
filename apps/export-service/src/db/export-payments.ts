import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import type { ExportPayment } from '../domain/export-payment';

/**
 * The export's read model of payments on issued invoices, fed by invoice.payment-recorded / -reversed. A reversed
 * payment stays as a marker (`reversed`) so that a reversal that overtook its payment is not undone by it; reversed
 * payments are never exported. `exportedBy` is the job that first contained the payment (claimed when the job runs,
 * given back when it fails).
 */
export interface ExportPaymentDoc extends ExportPayment {
  _id: string; // `${companyId}:${paymentId}`
  companyId: CompanyId;
  customerId: number;
  reversed: boolean;
  exportedBy?: string;
  updatedAt: Date;
}

const schema = new Schema<ExportPaymentDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    paymentId: { type: Number, required: true },
    invoiceId: { type: Number, required: true },
    customerId: Number,
    number: String,
    typeCode: String,
    amount: String,
    discount: String,
    date: String,
    reversed: { type: Boolean, required: true },
    exportedBy: String,
    updatedAt: Date,
  },
  { versionKey: false },
);
schema.index({ companyId: 1, date: 1, paymentId: 1 });
schema.index({ companyId: 1, exportedBy: 1 });

type Fields = Omit<ExportPaymentDoc, '_id' | 'companyId' | 'reversed' | 'exportedBy' | 'updatedAt'>;

export interface PaymentPeriodQuery {
  from: string;
  to: string;
  /** only_new: only the payments this job claimed. */
  onlyJob?: string;
}

export function exportPaymentsRepo(conn: Connection) {
  const model = conn.model<ExportPaymentDoc>('ExportPayment', schema, 'export_payments');
  const idOf = (companyId: CompanyId, paymentId: number) => `${companyId}:${paymentId}`;
  const live = (companyId: CompanyId, from: string, to: string) => ({ companyId, reversed: false, date: { $gte: from, $lte: to } });
  return {
    init: () => model.init().then(() => undefined),
    /** A recorded payment: created once; a payment already known (or already reversed) stays as it is. */
    recorded: (companyId: CompanyId, p: Fields, now: Date, session: ClientSession) =>
      model.updateOne(
        { _id: idOf(companyId, p.paymentId), companyId },
        { $setOnInsert: { ...p, companyId, reversed: false, updatedAt: now } },
        { upsert: true, session },
      ),
    /** A reversal: the payment is marked reversed (remembered as reversed when it has not arrived yet). */
    reversed: (companyId: CompanyId, p: Fields, now: Date, session: ClientSession) =>
      model.updateOne(
        { _id: idOf(companyId, p.paymentId), companyId },
        { $set: { reversed: true, updatedAt: now }, $setOnInsert: { ...p, companyId } },
        { upsert: true, session },
      ),
    /** The job claims the period's payments no export contained yet (the first job to claim a payment holds it). */
    claimUnexported: (companyId: CompanyId, jobId: string, from: string, to: string) =>
      model.updateMany({ ...live(companyId, from, to), exportedBy: { $exists: false } }, { $set: { exportedBy: jobId } }),
    /** A failed job gives its claims back. */
    releaseClaims: (companyId: CompanyId, jobId: string) =>
      model.updateMany({ companyId, exportedBy: jobId }, { $unset: { exportedBy: 1 } }),
    /** The period's payments that count, in booking order (date, payment id). */
    inPeriod: (companyId: CompanyId, q: PaymentPeriodQuery) =>
      model
        .find({ ...live(companyId, q.from, q.to), ...(q.onlyJob ? { exportedBy: q.onlyJob } : {}) })
        .sort({ date: 1, paymentId: 1 })
        .lean<ExportPaymentDoc[]>(),
  };
}
export type ExportPaymentsRepo = ReturnType<typeof exportPaymentsRepo>;
