import type { Document } from 'bson';
import { isExactKeyValue } from '../storage/index-manager';
import { isPlainObject, keyString } from '../util/values';

/** A document's answer to a filter: matched or not, or undefined when only mingo can tell. */
export type SimpleMatcher = (doc: Document) => boolean | undefined;

type Condition = { field: string; key: string } | { field: string; exists: boolean };

/**
 * The filters most commands carry (a write's `{ _id, companyId, status, updatedAt, finalizingJobId: { $exists:
 * false } }`), matched without mingo: building a mingo Query for each of them cost 6 % of this server's CPU under
 * the benchmark's load, more than testing the one or two documents an index lookup left.
 *
 * Only this subset, where the server's rules are simple: every top-level condition is an equality on a plain field
 * name with a value index keys compare exactly (string, number, boolean, Date, ObjectId: `keyString` equal means
 * equal, as in the server's type-bracketed comparison), or `{ $exists: true | false }`. Any other filter answers
 * undefined here (mingo builds its query, and rejects a malformed one). A document whose field holds an array (an
 * equality then also matches an element) or a BSON value other than those answers undefined too, and mingo tests
 * that document.
 */
export function simpleMatcher(filter: Document): SimpleMatcher | undefined {
  const conditions: Condition[] = [];
  for (const field of Object.keys(filter)) {
    if (!field || field.startsWith('$') || field.includes('.')) return undefined;
    const cond: unknown = filter[field];
    if (isExactKeyValue(cond)) conditions.push({ field, key: keyString(cond) });
    else if (isPlainObject(cond) && Object.keys(cond).length === 1 && typeof cond.$exists === 'boolean')
      conditions.push({ field, exists: cond.$exists });
    else return undefined;
  }
  return (doc) => {
    let answer = true;
    for (const c of conditions) {
      const value: unknown = doc[c.field];
      if (Array.isArray(value)) return undefined;
      if ('exists' in c) {
        if ((value !== undefined) !== c.exists) answer = false;
        continue;
      }
      if (value === undefined || value === null || isPlainObject(value)) {
        answer = false; // missing, null or an embedded document never equals a scalar
        continue;
      }
      if (!isExactKeyValue(value)) return undefined; // Decimal128, Long, Binary, ...: the server compares them its way
      if (keyString(value) !== c.key) answer = false;
    }
    return answer;
  };
}
