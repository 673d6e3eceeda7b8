import type { CompanyId, RequestLogEntry, RequestLogPage, RequestLogQuery } from '@inv/contracts';
import type { Redis } from '@inv/service-kit';

/** What is recorded of a request; the entry's `id` is given by Redis (the stream id). */
export type RecordedRequest = Omit<RequestLogEntry, 'id'>;

export interface RequestLogStore {
  /** One pipeline for them all: each entry appended, each log cut to its newest `maxEntries`, its expiry renewed. */
  append(entries: { companyId: CompanyId; entry: RecordedRequest }[]): Promise<void>;
  /** A page, newest first, from before `query.cursor`, filtered by status and method. */
  page(companyId: CompanyId, query: RequestLogQuery): Promise<RequestLogPage>;
}

/** Entries read per round trip while a filter skips some. */
const SCAN_CHUNK = 200;

const keyOf = (companyId: CompanyId) => `reqlog:${companyId}`;

/** `404` matches 404, `4xx` every 4xx. */
export function statusMatcher(status: string | undefined): (s: number) => boolean {
  if (!status) return () => true;
  const lower = status.toLowerCase();
  if (lower.endsWith('xx')) {
    const cls = Number(lower[0]);
    return (s) => Math.floor(s / 100) === cls;
  }
  const exact = Number(lower);
  return (s) => s === exact;
}

function entryOf(id: string, fields: string[]): RequestLogEntry | undefined {
  const at = fields.indexOf('e');
  if (at < 0 || at % 2 !== 0) return undefined;
  try {
    return { id, ...(JSON.parse(fields[at + 1] ?? '') as RecordedRequest) };
  } catch {
    return undefined;
  }
}

/**
 * The request log of each company (live and test twin apart: they are two company ids) as a Redis stream: the stream
 * ids order the entries and are the cursor, and the stream is cut to the newest `maxEntries` and expires
 * `ttlSeconds` after the company's last request.
 */
export function requestLogStore(redis: Redis, opts: { maxEntries: number; ttlSeconds: number }): RequestLogStore {
  return {
    async append(entries) {
      if (!entries.length) return;
      const pipeline = redis.pipeline();
      const keys = new Set<string>();
      for (const { companyId, entry } of entries) {
        const key = keyOf(companyId);
        keys.add(key);
        pipeline.xadd(key, 'MAXLEN', String(opts.maxEntries), '*', 'e', JSON.stringify(entry));
      }
      for (const key of keys) pipeline.expire(key, opts.ttlSeconds);
      const results = await pipeline.exec();
      const failed = results?.find(([err]) => err)?.[0];
      if (failed) throw failed;
    },

    async page(companyId, query) {
      const key = keyOf(companyId);
      const matchesStatus = statusMatcher(query.status);
      const filtered = query.status !== undefined || query.method !== undefined;
      const wanted = query.limit + 1; // one more than the page: is there an older one?
      const chunk = filtered ? SCAN_CHUNK : wanted;
      const found: RequestLogEntry[] = [];
      let end = query.cursor ? `(${query.cursor}` : '+';
      // the stream holds at most maxEntries: the scan is bounded by it
      for (let scanned = 0; found.length < wanted && scanned < opts.maxEntries;) {
        const rows = await redis.xrevrange(key, end, '-', 'COUNT', chunk);
        for (const [id, fields] of rows) {
          const entry = entryOf(id, fields);
          if (!entry || !matchesStatus(entry.status) || (query.method && entry.method !== query.method)) continue;
          found.push(entry);
          if (found.length === wanted) break;
        }
        scanned += rows.length;
        if (rows.length < chunk) break;
        end = `(${rows[rows.length - 1]![0]}`;
      }
      const entries = found.slice(0, query.limit);
      return { entries, next_cursor: found.length > query.limit ? entries[entries.length - 1]!.id : null };
    },
  };
}
