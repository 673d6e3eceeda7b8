import { deserialize, serialize, Long, type Document } from 'bson';

/** Opcodes of the MongoDB wire protocol that this server understands or answers with. */
export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

export const HEADER_SIZE = 16;
/** The real server's maxMessageSizeBytes; anything larger is treated as hostile and the socket closed. */
export const MAX_MESSAGE_SIZE = 48_000_000;

const FLAG_CHECKSUM_PRESENT = 1 << 0;
export const FLAG_MORE_TO_COME = 1 << 1;

export interface MessageHeader {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export interface ParsedQuery {
  kind: 'query';
  header: MessageHeader;
  fullCollectionName: string;
  query: Document;
}

export interface ParsedMsg {
  kind: 'msg';
  header: MessageHeader;
  flags: number;
  /** The kind-0 body with every kind-1 document sequence merged in under its identifier. */
  body: Document;
}

export class WireFormatError extends Error {}

export function readHeader(buf: Buffer): MessageHeader {
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

function readCString(buf: Buffer, offset: number, end: number): { value: string; next: number } {
  const zero = buf.indexOf(0, offset);
  if (zero < 0 || zero >= end) throw new WireFormatError('unterminated cstring');
  return { value: buf.toString('utf8', offset, zero), next: zero + 1 };
}

function readDocument(buf: Buffer, offset: number, end: number): { doc: Document; next: number } {
  if (offset + 5 > end) throw new WireFormatError('truncated BSON document');
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new WireFormatError('invalid BSON document length');
  const doc = deserialize(buf.subarray(offset, offset + size));
  return { doc, next: offset + size };
}

/** Parses one complete message (header included). Throws WireFormatError on malformed input. */
export function parseMessage(buf: Buffer): ParsedQuery | ParsedMsg {
  const header = readHeader(buf);
  const end = buf.length;
  if (header.opCode === OP_QUERY) {
    let off = HEADER_SIZE + 4; // flags
    const ns = readCString(buf, off, end);
    off = ns.next + 8; // numberToSkip + numberToReturn
    const { doc } = readDocument(buf, off, end);
    return { kind: 'query', header, fullCollectionName: ns.value, query: doc };
  }
  if (header.opCode === OP_MSG) {
    if (end < HEADER_SIZE + 5) throw new WireFormatError('truncated OP_MSG');
    const flags = buf.readUInt32LE(HEADER_SIZE);
    // The checksum (CRC-32C) is optional and only guards against corruption in transit; TCP on
    // loopback already does that, so it is stripped rather than verified.
    const sectionsEnd = flags & FLAG_CHECKSUM_PRESENT ? end - 4 : end;
    let off = HEADER_SIZE + 4;
    let body: Document | undefined;
    const sequences: Array<[string, Document[]]> = [];
    while (off < sectionsEnd) {
      const kind = buf[off];
      off += 1;
      if (kind === 0) {
        const r = readDocument(buf, off, sectionsEnd);
        body = r.doc;
        off = r.next;
      } else if (kind === 1) {
        if (off + 4 > sectionsEnd) throw new WireFormatError('truncated document sequence');
        const size = buf.readInt32LE(off);
        const seqEnd = off + size;
        if (size < 5 || seqEnd > sectionsEnd) throw new WireFormatError('invalid document sequence length');
        const id = readCString(buf, off + 4, seqEnd);
        const docs: Document[] = [];
        let p = id.next;
        while (p < seqEnd) {
          const r = readDocument(buf, p, seqEnd);
          docs.push(r.doc);
          p = r.next;
        }
        sequences.push([id.value, docs]);
        off = seqEnd;
      } else {
        throw new WireFormatError(`unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!body) throw new WireFormatError('OP_MSG without a body section');
    for (const [id, docs] of sequences) body[id] = docs;
    return { kind: 'msg', header, flags, body };
  }
  throw new WireFormatError(`unsupported opcode ${header.opCode}`);
}

const SERIALIZE_OPTS = { ignoreUndefined: true } as const;

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(HEADER_SIZE);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(requestId, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

/** OP_MSG reply with a single kind-0 section. */
export function encodeMsg(requestId: number, responseTo: number, doc: Document): Buffer {
  const body = serialize(doc, SERIALIZE_OPTS);
  const flagsAndKind = Buffer.alloc(5); // flagBits = 0, section kind 0
  const length = HEADER_SIZE + flagsAndKind.length + body.length;
  return Buffer.concat([header(length, requestId, responseTo, OP_MSG), flagsAndKind, body]);
}

/** OP_REPLY, the only answer legacy OP_QUERY clients (the driver's first handshake) understand. */
export function encodeReply(requestId: number, responseTo: number, doc: Document): Buffer {
  const body = serialize(doc, SERIALIZE_OPTS);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(0, 0); // responseFlags
  fields.writeBigInt64LE(Long.ZERO.toBigInt(), 4); // cursorID
  fields.writeInt32LE(0, 12); // startingFrom
  fields.writeInt32LE(1, 16); // numberReturned
  const length = HEADER_SIZE + fields.length + body.length;
  return Buffer.concat([header(length, requestId, responseTo, OP_REPLY), fields, body]);
}
