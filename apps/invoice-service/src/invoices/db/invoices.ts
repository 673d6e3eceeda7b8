import { Schema, type Connection, type ClientSession, type mongo } from 'mongoose';
import { AS_BUILT, driverCollection } from '@inv/service-kit';
import type { CompanyId, InvoiceSnapshot } from '@inv/contracts';
import { companyKey, migrateToCompanyKeys } from '@inv/runtime';
import { invoiceCounter } from '../../platform';
import { PENDING_INDEX, pushPending, type OutboxEntry, type PendingHolder, type PendingSource } from '@inv/outbox';

export type { InvoiceDoc, PositionDoc, StoredFile } from '../domain/invoice';
import type { InvoiceDoc, PositionDoc } from '../domain/invoice';

const file = { key: String, filename: String, contentType: String, size: Number };
const positionSchema = new Schema<PositionDoc>(
  {
    id: { type: Number, required: true },
    title: { type: String, required: true },
    description: String,
    quantity: { type: String, required: true },
    unitCode: { type: String, required: true },
    unitPrice: { type: String, required: true },
    taxRate: { type: String, required: true },
    taxTreatmentId: { type: String, required: true },
    discountType: String,
    discountValue: String,
    productId: Number,
  },
  { _id: false },
);

export const invoiceSchema = new Schema<InvoiceDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
    customerId: { type: Number, required: true },
    status: { type: String, required: true },
    number: { type: String, required: true },
    typeCode: { type: String, required: true },
    format: { type: String, required: true },
    templateId: Number,
    taxTreatmentId: String,
    benefitPeriodStart: String,
    benefitPeriodEnd: String,
    buyerReference: String,
    customerName: String,
    grossCents: Number,
    meta: String,
    metaJson: String,
    note: String,
    positions: [positionSchema],
    invoiceDate: String,
    dueDate: String,
    finalizingJobId: String,
    attachmentsUploaded: Boolean,
    snapshot: Schema.Types.Mixed,
    pdf: file,
    xml: file,
    pendingMessages: { type: [Schema.Types.Mixed], default: undefined },
    paidDate: String,
    paymentMethod: String,
    paymentReference: String,
    paidCents: Number,
    discountCents: Number,
    paidFromStatus: String,
    precedingInvoiceId: Number,
    creditedCents: Number,
    creditReservedCents: Number,
    creditSettledCents: Number,
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    finalizedAt: Date,
    cancelledAt: Date,
  },
  { versionKey: false },
);
invoiceSchema.index({ companyId: 1, number: 1 }, { unique: true });
// GET /invoice/ (list-filter.ts): every filter and sort order has an index led by companyId, and a status filter (the
// list's tabs; open=true is two statuses, merged in order) one for each sort order too. A cursor's range is a range of
// the sort's index; `q` is matched against the keys of the number and customerName indexes (no collection scan)
invoiceSchema.index({ companyId: 1, status: 1, id: -1 });
invoiceSchema.index({ companyId: 1, status: 1, invoiceDate: -1, id: -1 });
invoiceSchema.index({ companyId: 1, status: 1, grossCents: -1, id: -1 });
invoiceSchema.index({ companyId: 1, status: 1, number: 1 });
invoiceSchema.index({ companyId: 1, customerId: 1, id: -1 });
invoiceSchema.index({ companyId: 1, typeCode: 1, id: -1 });
invoiceSchema.index({ companyId: 1, invoiceDate: -1, id: -1 });
invoiceSchema.index({ companyId: 1, dueDate: 1, status: 1 });
invoiceSchema.index({ companyId: 1, grossCents: -1, id: -1 });
invoiceSchema.index({ companyId: 1, customerName: 1 });
// (companyId, id) is unique by the _id, which is made of both
invoiceSchema.index({ companyId: 1, id: -1 });
// the drafts whose messages are not published yet (a crash between the write and the relay): only those are in it
invoiceSchema.index(PENDING_INDEX.key, { name: PENDING_INDEX.name, partialFilterExpression: PENDING_INDEX.partialFilterExpression });

/** What GET /invoice/ leaves out of each invoice it reads (presentInvoice shows neither). */
const LIST_PROJECTION = { snapshot: 0, pendingMessages: 0 } as const;

/** The key of a company's invoice `id`: ids are numbered per company (its first invoice is 1). */
export const invoiceKey = companyKey;

/** The relay's name for the invoices collection, whose drafts hold the events of their changes (pendingSource below). */
export const INVOICES_SOURCE = 'invoices';

export function invoicesRepo(conn: Connection) {
  const model = conn.model<InvoiceDoc>('Invoice', invoiceSchema, 'invoices');
  /**
   * The hot path of an invoice goes to the driver: the read of an invoice by id, and the writes of a draft (its
   * insert, each change of its positions, the claim for finalization, its completion) with documents our use cases
   * build with the schema's types. A mongoose query costs 55–75 µs of CPU more than the driver's for the same
   * read (query building, casting, middleware; docs/performance.md), and mongoose casts every position of the list
   * on every write: 0.2 ms of CPU per write with 3 positions, ~0.9 with 30 and 2–3 with 100 (docs/performance.md),
   * so an invoice built one position at a time cost time quadratic in its length. invoices.int.spec.ts checks that
   * both store the same document.
   */
  const raw = driverCollection(model);
  const rawOpts = (session?: ClientSession) => ({ ...AS_BUILT, session });
  const draft = (companyId: CompanyId, id: number) => ({
    _id: invoiceKey(companyId, id),
    companyId,
    status: 'DRAFT' as const,
    finalizingJobId: { $exists: false },
  });
  const matched = (res: { matchedCount: number }) => res.matchedCount === 1;
  return {
    /** The indexes, and invoices stored before ids were per company brought to the current shape (company-keys.ts). */
    init: async () => {
      await model.init();
      await migrateToCompanyKeys(conn, { collection: 'invoices', counter: invoiceCounter });
    },
    /** The drafts' pending messages, for the relay (service-runtime keepPendingIn). */
    pendingSource: { name: INVOICES_SOURCE, collection: raw as unknown as mongo.Collection<PendingHolder> } satisfies PendingSource,
    /** The largest position id the company's invoices hold (0 without any): where its position counter starts. */
    maxPositionId: async (companyId: CompanyId): Promise<number> => {
      const [top] = await raw
        .aggregate<{ max: number | null }>([
          { $match: { companyId } },
          { $unwind: '$positions' },
          { $group: { _id: null, max: { $max: '$positions.id' } } },
        ])
        .toArray();
      return top?.max ?? 0;
    },
    /** Every read is scoped by company: another company's id is simply not found. */
    get: (companyId: CompanyId, id: number, session?: ClientSession): Promise<InvoiceDoc | null> =>
      raw.findOne({ _id: invoiceKey(companyId, id), companyId }, session ? { session } : undefined),
    /** Stores a new document; a number the company used already fails with a duplicate key (see duplicateNumber). */
    insert: async (doc: Omit<InvoiceDoc, '_id'>, session?: ClientSession) =>
      void (await raw.insertOne({ _id: invoiceKey(doc.companyId, doc.id), ...doc }, rawOpts(session))),
    numberTaken: async (companyId: CompanyId, number: string, session?: ClientSession) =>
      (await model.exists({ companyId, number }).session(session ?? null)) !== null,
    /** Changes fields of a draft nobody is finalizing, with the events announcing it kept in it; answers whether it was one. */
    updateDraft: async (companyId: CompanyId, id: number, set: Partial<InvoiceDoc>, pending: OutboxEntry[] = []) =>
      matched(await model.updateOne(draft(companyId, id), { $set: set, ...pushPending(pending) })),
    /**
     * The positions of a draft, only if nobody changed it since `seen`: its updatedAt, and the invoice's tax treatment
     * (a new position's default), which an update of the invoice in the same millisecond would leave updatedAt equal.
     */
    setPositions: async (
      companyId: CompanyId,
      id: number,
      seen: Pick<InvoiceDoc, 'updatedAt' | 'taxTreatmentId'>,
      set: Pick<InvoiceDoc, 'positions' | 'grossCents' | 'updatedAt'>,
      /** Messages announcing the change, kept in the draft with it (one atomic write); hand them to the relay after. */
      pending: OutboxEntry[] = [],
      session?: ClientSession,
    ) =>
      matched(
        await raw.updateOne(
          // null matches an invoice without a tax treatment too
          { ...draft(companyId, id), updatedAt: seen.updatedAt, taxTreatmentId: seen.taxTreatmentId ?? null } as mongo.Filter<InvoiceDoc>,
          { $set: set, ...pushPending(pending) },
          rawOpts(session),
        ),
      ),
    /** An attachment upload starts: finalization must look for the invoice's attachments from now on. */
    noteAttachmentUpload: async (companyId: CompanyId, id: number) =>
      void (await model.updateOne(
        { _id: invoiceKey(companyId, id), companyId, attachmentsUploaded: false },
        { $set: { attachmentsUploaded: true } },
      )),
    /** Cancels a draft nobody is finalizing, with the events announcing it kept in it; answers whether it was one. */
    cancelDraft: async (companyId: CompanyId, id: number, now: Date, pending: OutboxEntry[] = []) =>
      matched(
        await model.updateOne(draft(companyId, id), {
          $set: { status: 'CANCELLED', cancelledAt: now, updatedAt: now },
          ...pushPending(pending),
        }),
      ),
    /** A status move of a finalized document, only from the status it was read in. */
    moveStatus: async (companyId: CompanyId, id: number, from: InvoiceDoc['status'], set: Partial<InvoiceDoc>, session?: ClientSession) =>
      matched(await model.updateOne({ _id: invoiceKey(companyId, id), companyId, status: from }, { $set: set }, { session })),
    /**
     * A payment or its reversal: the paid and discount cents (and the status) change only if they and the credited
     * cents are still as `seen`
     * (read in the same transaction; a concurrent payment makes this answer false or the transaction retry).
     */
    settle: async (
      companyId: CompanyId,
      id: number,
      seen: Pick<InvoiceDoc, 'status' | 'paidCents' | 'discountCents' | 'creditSettledCents'>,
      set: Partial<InvoiceDoc>,
      unset: Array<keyof InvoiceDoc>,
      session?: ClientSession,
    ) => {
      const same = (cents?: number) => (cents ? cents : { $in: [null, 0] });
      return matched(
        await model.updateOne(
          {
            _id: invoiceKey(companyId, id),
            companyId,
            status: seen.status,
            paidCents: same(seen.paidCents),
            discountCents: same(seen.discountCents),
            creditSettledCents: same(seen.creditSettledCents),
          },
          { $set: set, ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, 1])) } : {}) },
          { session },
        ),
      );
    },
    /** OPEN -> SENT (an e-mail was accepted); answers the invoice if it moved. */
    markSent: (companyId: CompanyId, id: number, now: Date, session?: ClientSession) =>
      model
        .findOneAndUpdate(
          { _id: invoiceKey(companyId, id), companyId, status: 'OPEN' },
          { $set: { status: 'SENT', updatedAt: now } },
          { session, returnDocument: 'after' },
        )
        .lean<InvoiceDoc>(),
    /** Takes the draft for finalization job `jobId` if nobody changed it since `seen`, with the frozen data. */
    claimForFinalize: async (
      companyId: CompanyId,
      id: number,
      seen: Date,
      jobId: string,
      frozen: Partial<InvoiceDoc>,
      session?: ClientSession,
    ) =>
      matched(
        await raw.updateOne(
          { ...draft(companyId, id), updatedAt: seen },
          { $set: { ...frozen, finalizingJobId: jobId } },
          rawOpts(session),
        ),
      ),
    /** The documents exist: the draft being finalized by `jobId` becomes OPEN; answers it, or null if it is no longer that draft. */
    completeFinalize: (
      companyId: CompanyId,
      id: number,
      jobId: string,
      files: Pick<InvoiceDoc, 'pdf' | 'xml'>,
      now: Date,
      session?: ClientSession,
    ): Promise<InvoiceDoc | null> =>
      raw.findOneAndUpdate(
        { _id: invoiceKey(companyId, id), companyId, status: 'DRAFT', finalizingJobId: jobId },
        { $set: { status: 'OPEN', ...files, finalizedAt: now, updatedAt: now }, $unset: { finalizingJobId: 1 } },
        { ...rawOpts(session), returnDocument: 'after' },
      ),
    /**
     * Takes `cents` of a finalized invoice's creditable gross (`limitCents`, its gross total) for a credit note,
     * atomically: only if what its credit notes took so far plus `cents` stays within the limit. Answers whether
     * it did. Two transactions taking from one invoice conflict on its document; the retry sees the other's take.
     */
    reserveCredit: async (companyId: CompanyId, id: number, cents: number, limitCents: number, session?: ClientSession) =>
      cents <= limitCents &&
      matched(
        await raw.updateOne(
          {
            _id: invoiceKey(companyId, id),
            companyId,
            typeCode: '380',
            status: { $in: ['OPEN', 'SENT', 'PAID'] },
            $or: [{ creditedCents: { $exists: false } }, { creditedCents: { $lte: limitCents - cents } }],
          } as mongo.Filter<InvoiceDoc>,
          { $inc: { creditedCents: cents } },
          rawOpts(session),
        ),
      ),
    /**
     * Finalization of credit note `id` by `jobId` failed: what it took from its invoice goes back (once: the
     * credit note forgets its reservation in the same transaction). Answers the cents given back.
     */
    releaseCredit: async (companyId: CompanyId, id: number, jobId: string, session?: ClientSession) => {
      const before = await raw.findOneAndUpdate(
        { _id: invoiceKey(companyId, id), companyId, finalizingJobId: jobId, creditReservedCents: { $gt: 0 } },
        { $unset: { creditReservedCents: 1 } },
        { ...rawOpts(session), returnDocument: 'before' },
      );
      if (!before?.creditReservedCents || before.precedingInvoiceId === undefined) return 0;
      await raw.updateOne(
        { _id: invoiceKey(companyId, before.precedingInvoiceId), companyId },
        { $inc: { creditedCents: -before.creditReservedCents } },
        rawOpts(session),
      );
      return before.creditReservedCents;
    },
    /**
     * A credit note is finalized and `cents` of it are applied to the invoice `id` it corrects: the invoice counts them
     * in its creditSettledCents (and `set`: PAID when that settles it), only if the invoice is still as `seen` (read in the
     * same transaction). The caller adds each credit note once: in the transaction that moves it from DRAFT to OPEN.
     */
    settleCredit: async (
      companyId: CompanyId,
      id: number,
      seen: Pick<InvoiceDoc, 'status' | 'creditSettledCents'>,
      cents: number,
      set: Partial<InvoiceDoc>,
      session?: ClientSession,
    ) =>
      matched(
        await raw.updateOne(
          {
            _id: invoiceKey(companyId, id),
            companyId,
            status: seen.status,
            creditSettledCents: seen.creditSettledCents ? seen.creditSettledCents : { $in: [null, 0] },
          } as mongo.Filter<InvoiceDoc>,
          { $inc: { creditSettledCents: cents }, $set: set },
          rawOpts(session),
        ),
      ),
    /** Finalization failed: the draft is editable again, without the data frozen for it. */
    releaseFinalize: (companyId: CompanyId, id: number, jobId: string, session?: ClientSession) =>
      model.updateOne(
        { _id: invoiceKey(companyId, id), companyId, finalizingJobId: jobId },
        { $unset: { finalizingJobId: 1, snapshot: 1, invoiceDate: 1, dueDate: 1 } },
        { session },
      ),
    /**
     * The company's invoices that take payments (OPEN, SENT; not credit notes), with what matching a bank statement
     * needs: one read per import (the `{companyId, status, id}` index).
     */
    openForMatching: (companyId: CompanyId) =>
      raw
        .find(
          { companyId, status: { $in: ['OPEN', 'SENT'] }, typeCode: '380' },
          {
            projection: {
              _id: 0,
              id: 1,
              number: 1,
              customerId: 1,
              customerName: 1,
              status: 1,
              grossCents: 1,
              paidCents: 1,
              discountCents: 1,
              creditSettledCents: 1,
              positions: 1,
              'snapshot.earlyPaymentDiscount': 1,
              'snapshot.buyer.name': 1,
            },
          },
        )
        .toArray() as Promise<
        Array<
          Pick<
            InvoiceDoc,
            | 'id'
            | 'number'
            | 'customerId'
            | 'customerName'
            | 'status'
            | 'grossCents'
            | 'paidCents'
            | 'discountCents'
            | 'creditSettledCents'
            | 'positions'
          > & {
            snapshot?: Pick<InvoiceSnapshot, 'earlyPaymentDiscount'> & { buyer?: { name?: string } };
          }
        >
      >,
    /** Number, customer and buyer name of the company's invoices `ids` (a list that names invoices, such as reminders). */
    heads: async (companyId: CompanyId, ids: number[]) =>
      (await raw
        .find({ companyId, id: { $in: ids } }, { projection: { _id: 0, id: 1, number: 1, customerId: 1, customerName: 1 } })
        .toArray()) as unknown as Pick<InvoiceDoc, 'id' | 'number' | 'customerId' | 'customerName'>[],
    /**
     * One page of the company's invoices matching `filter` (built by the list use case), and the count of those matching
     * `whole` (the list's filter without a cursor's range). The stored snapshot and pending messages stay in the
     * database: a list shows neither, and a finalized invoice's snapshot is most of its size.
     */
    async page(
      companyId: CompanyId,
      q: { filter: Record<string, unknown>; whole: Record<string, unknown>; sort: Record<string, 1 | -1> },
      page: { skip: number; limit: number },
    ) {
      const [docs, total] = await Promise.all([
        raw
          .find({ ...q.filter, companyId } as mongo.Filter<InvoiceDoc>, { projection: LIST_PROJECTION })
          .sort(q.sort)
          .skip(page.skip)
          .limit(page.limit)
          .toArray(),
        raw.countDocuments({ ...q.whole, companyId } as mongo.Filter<InvoiceDoc>),
      ]);
      return { docs: docs as InvoiceDoc[], total };
    },
  };
}
export type InvoicesRepo = ReturnType<typeof invoicesRepo>;
