import type { Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { createCounters } from '@inv/runtime';

/**
 * Public ids (invoices, products, attachments) are numbered per company: a company's first invoice is 1, whatever
 * other companies did, so an id tells nothing about other tenants' volume. One counter per company and kind.
 */
export const invoiceCounter = (companyId: CompanyId) => `invoice:${companyId}`;
export const productCounter = (companyId: CompanyId) => `product:${companyId}`;
export const attachmentCounter = (companyId: CompanyId) => `attachment-id:${companyId}`;

/** A stored document as it was before ids were per company: the public id was the `_id` itself. */
interface LegacyDoc {
  _id: number | string;
  companyId: CompanyId;
  id?: number;
}

/**
 * Brings a collection whose documents had the public id as `_id` (a number from one counter for all companies) to
 * the per-company shape: `{ _id: '<companyId>:<id>', id, … }`. Every document keeps its id (unique within its
 * company, as it was across all), and its company's counter moves to at least that id, so new ids continue after
 * the company's largest. Runs at every start (the repository's init): once done, one query finds nothing to do.
 * Idempotent and safe to interrupt at any point and to run in several processes at once: the counter moves first
 * ($max, idempotent), then one transaction replaces the old document by the new. Answers how many documents moved.
 */
export async function migrateToCompanyKeys(
  conn: Connection,
  target: { collection: string; counter: (companyId: CompanyId) => string },
): Promise<number> {
  const coll = conn.db!.collection<LegacyDoc>(target.collection);
  const counters = createCounters(conn);
  let moved = 0;
  // documents of the current shape always have `id`; the old ones never had the field
  for await (const old of coll.find({ id: { $exists: false } })) {
    if (typeof old._id !== 'number') continue;
    const id = old._id;
    await counters.atLeast(target.counter(old.companyId), id);
    // one transaction: the new document repeats the old one's unique fields (the invoice number), so the old one
    // goes first; a parallel run that moved it already leaves nothing to delete, and then nothing is inserted
    const session = await conn.startSession();
    try {
      await session.withTransaction(async () => {
        if ((await coll.deleteOne({ _id: id }, { session })).deletedCount === 1) {
          await coll.insertOne({ ...old, _id: `${old.companyId}:${id}`, id }, { session });
          moved++;
        }
      });
    } finally {
      await session.endSession();
    }
  }
  return moved;
}
