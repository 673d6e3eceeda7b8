import { Schema, type Connection, type ClientSession } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import type { LedgerInvoice, LedgerPayment, LedgerReminder, LedgerStatus } from '../domain/ledger-rules';

/**
 * One invoice or credit note of a customer as the invoice events told us. The finalized event fills the
 * amounts (`finalized: true`); status events may arrive before it (redelivery, retries), so every field
 * but the ids is optional until then.
 */
export interface LedgerInvoiceDoc {
  _id: string; // `${companyId}:${invoiceId}`
  companyId: CompanyId;
  customerId: number;
  invoiceId: number;
  finalized: boolean;
  number?: string;
  typeCode?: '380' | '381';
  invoiceDate?: string;
  dueDate?: string;
  currency?: string;
  totalGross?: string;
  status: LedgerStatus;
  paidDate?: string;
  cancelledDate?: string;
  /** From invoice.payment-recorded / -reversed events (reversed ones stay, marked, so a late payment is recognised). */
  payments?: LedgerPayment[];
  /** A PAID status event said settledByCredit: settled by a credit note, no payment (ledger-rules.ts). */
  settledByCredit?: boolean;
  /** From invoice.reminder-issued events, one per reminder id. */
  reminders?: LedgerReminder[];
  updatedAt: Date;
}

/** Envelope ids of invoice events already applied: a redelivered event is recognised and skipped. */

const schema = new Schema<LedgerInvoiceDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    customerId: { type: Number, required: true },
    invoiceId: { type: Number, required: true },
    finalized: { type: Boolean, required: true },
    number: String,
    typeCode: String,
    invoiceDate: String,
    dueDate: String,
    currency: String,
    totalGross: String,
    status: { type: String, required: true },
    paidDate: String,
    cancelledDate: String,
    settledByCredit: Boolean,
    payments: {
      type: [{ _id: false, paymentId: Number, amount: String, discount: String, date: String, reversed: Boolean }],
      default: undefined,
    },
    reminders: {
      type: [{ _id: false, reminderId: Number, level: Number, date: String, fee: String, interest: String, flatFee: String }],
      default: undefined,
    },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ companyId: 1, customerId: 1, invoiceDate: 1 });

export function ledgerRepo(conn: Connection) {
  const model = conn.model<LedgerInvoiceDoc>('LedgerInvoice', schema, 'ledger_invoices');
  const idOf = (companyId: CompanyId, invoiceId: number) => `${companyId}:${invoiceId}`;
  return {
    init: () => model.init(),
    get: (companyId: CompanyId, invoiceId: number, session?: ClientSession) =>
      model
        .findOne({ _id: idOf(companyId, invoiceId), companyId })
        .session(session ?? null)
        .lean<LedgerInvoiceDoc>(),
    /** Sets fields of the invoice's ledger entry, creating it (with `onInsert`) if it is not there yet. */
    upsert: (
      companyId: CompanyId,
      invoiceId: number,
      set: Partial<LedgerInvoiceDoc>,
      onInsert: Partial<LedgerInvoiceDoc>,
      session?: ClientSession,
    ) =>
      model.updateOne(
        { _id: idOf(companyId, invoiceId), companyId },
        { $set: set, ...(Object.keys(onInsert).length ? { $setOnInsert: onInsert } : {}) },
        { upsert: true, session },
      ),
    /** `upsert` for several entries in one round trip (in order). */
    upsertMany: async (
      entries: Array<{ companyId: CompanyId; invoiceId: number; set: Partial<LedgerInvoiceDoc>; onInsert: Partial<LedgerInvoiceDoc> }>,
      session: ClientSession,
    ) =>
      void (await model.bulkWrite(
        entries.map((e) => ({
          updateOne: {
            filter: { _id: idOf(e.companyId, e.invoiceId), companyId: e.companyId },
            update: { $set: e.set, ...(Object.keys(e.onInsert).length ? { $setOnInsert: e.onInsert } : {}) },
            upsert: true,
          },
        })),
        { session, ordered: true },
      )),
    /** The finalized documents of one customer, in the shape the ledger rules compute with. */
    async invoicesOf(companyId: CompanyId, customerId: number): Promise<LedgerInvoice[]> {
      const docs = await model.find({ companyId, customerId, finalized: true }).lean<LedgerInvoiceDoc[]>();
      return docs.map((d) => ({
        invoiceId: d.invoiceId,
        number: d.number ?? String(d.invoiceId),
        typeCode: d.typeCode ?? '380',
        invoiceDate: d.invoiceDate ?? '',
        dueDate: d.dueDate,
        totalGross: d.totalGross ?? '0',
        status: d.status,
        paidDate: d.paidDate,
        cancelledDate: d.cancelledDate,
        payments: d.payments,
        settledByCredit: d.settledByCredit,
        reminders: d.reminders,
      }));
    },
  };
}
export type LedgerRepo = ReturnType<typeof ledgerRepo>;
