import type { Store } from './store';
import { valuesAtPath } from '../util/values';

/**
 * Removes documents whose TTL index field (a date, or an array of dates: the earliest counts) is
 * older than `expireAfterSeconds`, like mongod's TTL monitor (which runs every 60 s; ours is
 * driven by the server's sweep interval).
 */
export function sweepExpired(store: Store, now: number): number {
  let removed = 0;
  for (const coll of store.allCollections()) {
    for (const ix of coll.indexes.values()) {
      const ttl = ix.spec.expireAfterSeconds;
      if (typeof ttl !== 'number' || ix.fields.length !== 1) continue;
      const cutoff = now - ttl * 1000;
      for (const [id, { doc }] of [...coll.docs]) {
        const dates = valuesAtPath(doc, ix.fields[0]).filter((v): v is Date => v instanceof Date);
        if (dates.length && Math.min(...dates.map((d) => d.getTime())) <= cutoff) {
          coll.remove(id);
          removed++;
        }
      }
    }
  }
  return removed;
}
