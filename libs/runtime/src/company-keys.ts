import type { Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { createCounters } from './counters';

/**
 * The `_id` of a document whose public id is numbered per company (a company's first invoice, product, download is
 * 1, whatever other companies did, so that an id tells nothing about other tenants' volume): the id alone repeats
 * across companies, the pair does not.
 */
export const companyKey = (companyId: CompanyId, id: number) => `${companyId}:${id}`;

/** A stored document as it was before ids were per company: the public id was the `_id` itself. */
interface LegacyDoc {
  _id: number | string;
  companyId: CompanyId;
  id?: number;
}

/**
 * Brings a collection whose documents had the public id as `_id` (a number from one counter for all companies) to
 * the per-company shape: `{ _id: companyKey(companyId, id), id, … }`. Every document keeps its id (unique within its
 * company, as it was across all), and its company's counter moves to at least that id, so new ids continue after
 * the company's largest. Runs at every start (the repository's init); once done, its query (numeric `_id`s, on the
 * `_id` index: MongoDB compares a number only with numbers) finds nothing.
 * Idempotent, safe to interrupt at any point and to run in several processes at once: the counter moves first
 * ($max), then one transaction replaces the old document by the new (the old one first: the new one repeats its
 * unique fields, like an invoice's number); a run that finds it moved already inserts nothing. Answers how many
 * documents it moved.
 */
export async function migrateToCompanyKeys(
  conn: Connection,
  target: { collection: string; counter: (companyId: CompanyId) => string },
): Promise<number> {
  const coll = conn.db!.collection<LegacyDoc>(target.collection);
  const counters = createCounters(conn);
  let moved = 0;
  for await (const old of coll.find({ _id: { $gte: 0 } })) {
    if (typeof old._id !== 'number') continue;
    const id = old._id;
    await counters.atLeast(target.counter(old.companyId), id);
    const session = await conn.startSession();
    try {
      await session.withTransaction(async () => {
        if ((await coll.deleteOne({ _id: id }, { session })).deletedCount === 1) {
          await coll.insertOne({ ...old, _id: companyKey(old.companyId, id), id }, { session });
          moved++;
        }
      });
    } finally {
      await session.endSession();
    }
  }
  return moved;
}
