import { serialize, type Document } from 'bson';
import { OP_MSG, OP_QUERY } from './codec';

// Client-side message builders for tests: what a driver puts on the wire.

export function header(length: number, requestId: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(requestId, 4);
  h.writeInt32LE(0, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

/** Builds an OP_MSG the way a driver does: body section plus optional kind-1 sequences. */
export function buildMsg(
  body: Document,
  opts: { flags?: number; sequences?: Record<string, Document[]>; checksum?: boolean } = {},
): Buffer {
  const parts: Buffer[] = [];
  const flags = Buffer.alloc(4);
  flags.writeUInt32LE((opts.flags ?? 0) | (opts.checksum ? 1 : 0));
  parts.push(flags, Buffer.from([0]), Buffer.from(serialize(body)));
  for (const [id, docs] of Object.entries(opts.sequences ?? {})) {
    const payload = Buffer.concat([Buffer.from(`${id}\0`), ...docs.map((d) => Buffer.from(serialize(d)))]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(payload.length + 4);
    parts.push(Buffer.from([1]), size, payload);
  }
  if (opts.checksum) parts.push(Buffer.alloc(4, 0xab));
  const rest = Buffer.concat(parts);
  return Buffer.concat([header(16 + rest.length, 7, OP_MSG), rest]);
}

export function buildQuery(ns: string, query: Document): Buffer {
  const rest = Buffer.concat([Buffer.alloc(4), Buffer.from(`${ns}\0`), Buffer.alloc(8), Buffer.from(serialize(query))]);
  return Buffer.concat([header(16 + rest.length, 3, OP_QUERY), rest]);
}
