import { calculateObjectSize, Long, type Document } from 'bson';
import { CommandError, ErrorCodes } from './errors';

const DEFAULT_FIRST_BATCH = 101;
/** The real server stops a batch at 16 MiB of documents; replies then stay below maxMessageSizeBytes. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;
/** Idle cursors are reaped like the server's cursorTimeoutMillis (10 minutes). */
const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;

interface OpenCursor {
  ns: string;
  docs: Document[];
  pos: number;
  lastUsed: number;
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Long) return v.toNumber();
  return Number(v);
}

/** Result sets kept between `find`/`aggregate` and `getMore`, addressed by BSON int64 ids. */
export class CursorRegistry {
  private readonly cursors = new Map<string, OpenCursor>();
  // Start high so ids are visibly 64-bit; the driver must treat them as Long, never as int32.
  private nextId = Long.fromNumber(2 ** 40 + Math.floor(Math.random() * 2 ** 30));

  /** Returns the `cursor` sub-document of a find/aggregate reply. */
  open(ns: string, docs: Document[], batchSize?: unknown, singleBatch = false): Document {
    const size = batchSize === undefined || batchSize === null ? DEFAULT_FIRST_BATCH : toNumber(batchSize);
    // batchSize 0 asks for an open cursor with an empty first batch (no documents yet).
    const first = size === 0 ? [] : takeBatch(docs, 0, size);
    if (singleBatch || (first.length >= docs.length && size !== 0) || !docs.length) return { firstBatch: first, id: Long.ZERO, ns };
    this.nextId = this.nextId.add(1);
    const id = this.nextId;
    this.cursors.set(id.toString(), { ns, docs, pos: first.length, lastUsed: Date.now() });
    return { firstBatch: first, id, ns };
  }

  getMore(rawId: unknown, ns: string, batchSize?: unknown): Document {
    const key = Long.fromValue(rawId as Long | number | string).toString();
    const cursor = this.cursors.get(key);
    if (!cursor || cursor.ns !== ns) throw new CommandError(ErrorCodes.CursorNotFound, `cursor id ${key} not found`);
    const size = batchSize === undefined || batchSize === null ? 0 : toNumber(batchSize);
    const batch = takeBatch(cursor.docs, cursor.pos, size);
    cursor.pos += batch.length;
    cursor.lastUsed = Date.now();
    const done = cursor.pos >= cursor.docs.length;
    if (done) this.cursors.delete(key);
    return { nextBatch: batch, id: done ? Long.ZERO : Long.fromString(key), ns };
  }

  kill(ids: unknown[]): Document {
    const cursorsKilled: Long[] = [];
    const cursorsNotFound: Long[] = [];
    for (const raw of ids) {
      const id = Long.fromValue(raw as Long | number | string);
      (this.cursors.delete(id.toString()) ? cursorsKilled : cursorsNotFound).push(id);
    }
    return { cursorsKilled, cursorsNotFound, cursorsAlive: [], cursorsUnknown: [] };
  }

  sweep(now = Date.now()): void {
    for (const [id, c] of this.cursors) if (now - c.lastUsed > CURSOR_TIMEOUT_MS) this.cursors.delete(id);
  }

  get size(): number {
    return this.cursors.size;
  }
}

function takeBatch(docs: Document[], from: number, size: number): Document[] {
  const limit = size > 0 ? Math.min(docs.length, from + size) : docs.length;
  const out: Document[] = [];
  let bytes = 0;
  for (let i = from; i < limit; i++) {
    bytes += calculateObjectSize(docs[i]);
    if (out.length && bytes > MAX_BATCH_BYTES) break;
    out.push(docs[i]);
  }
  return out;
}
