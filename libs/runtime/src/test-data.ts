import type { ClientSession, Connection } from 'mongoose';
import { isTestCompany, type CompanyId } from '@inv/contracts';

/** Collections a reset leaves alone: messages still to be published (the reset's own among them) and the inbox that keeps redeliveries harmless. */
const KEPT = new Set(['outbox', 'processed_events']);

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Removes every document of a test twin (docs/test-mode.md) from every collection of the service's database: the
 * documents with its `companyId`, those keyed by it (`<company>:<id>`, `companyKey`; `_id` the company itself, as a
 * chain head or plan), and its counters (`<kind>:<company>`, also with a suffix), so its numbering starts again. Refuses a live company's id:
 * live data is never a target. Idempotent (a repeat deletes nothing), so a redelivered reset changes nothing twice.
 * Answers how many documents each collection lost.
 */
export async function deleteTestCompanyData(
  conn: Connection,
  companyId: CompanyId,
  session?: ClientSession,
): Promise<Record<string, number>> {
  if (!isTestCompany(companyId)) throw new Error(`refusing to delete the data of ${companyId}: not a test twin`);
  const id = escapeRegex(companyId);
  const filter = {
    $or: [{ companyId }, { _id: companyId }, { _id: { $regex: `^${id}:` } }, { _id: { $regex: `:${id}(:|$)` } }],
  } as Record<string, unknown>;
  const deleted: Record<string, number> = {};
  const collections = await conn.db!.listCollections({}, { nameOnly: true }).toArray();
  for (const { name } of collections) {
    if (KEPT.has(name) || name.startsWith('system.')) continue;
    const { deletedCount } = await conn.db!.collection(name).deleteMany(filter, { session });
    if (deletedCount) deleted[name] = deletedCount;
  }
  return deleted;
}
