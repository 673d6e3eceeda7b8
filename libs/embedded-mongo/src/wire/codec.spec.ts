import { deserialize } from 'bson';
import { encodeMsg, encodeReply, FLAG_MORE_TO_COME, OP_MSG, OP_REPLY, parseMessage, readHeader, WireFormatError } from './codec';
import { buildMsg, buildQuery, header } from './test-frames';

describe('wire codec', () => {
  it('parses an OP_MSG body and merges kind-1 document sequences into it', () => {
    const msg = parseMessage(buildMsg({ insert: 'c', $db: 'd' }, { sequences: { documents: [{ a: 1 }, { a: 2 }] } }));
    expect(msg.kind).toBe('msg');
    expect(msg.kind === 'msg' && msg.body).toEqual({ insert: 'c', $db: 'd', documents: [{ a: 1 }, { a: 2 }] });
  });

  it('strips a checksum and keeps the flag bits', () => {
    const msg = parseMessage(buildMsg({ ping: 1 }, { checksum: true, flags: FLAG_MORE_TO_COME }));
    expect(msg.kind === 'msg' && msg.body).toEqual({ ping: 1 });
    expect(msg.kind === 'msg' && msg.flags & FLAG_MORE_TO_COME).toBeTruthy();
  });

  it('parses a legacy OP_QUERY command', () => {
    const msg = parseMessage(buildQuery('admin.$cmd', { ismaster: 1 }));
    expect(msg).toMatchObject({ kind: 'query', fullCollectionName: 'admin.$cmd', query: { ismaster: 1 } });
  });

  it('rejects truncated documents, bad section kinds and unknown opcodes', () => {
    const good = buildMsg({ ping: 1 });
    const truncated = Buffer.from(good.subarray(0, good.length - 3));
    truncated.writeInt32LE(truncated.length, 0);
    expect(() => parseMessage(truncated)).toThrow(WireFormatError);
    const badKind = Buffer.from(good);
    badKind[20] = 7;
    expect(() => parseMessage(badKind)).toThrow(WireFormatError);
    expect(() => parseMessage(header(16, 1, 2002))).toThrow(WireFormatError);
    expect(() => parseMessage(Buffer.concat([header(21, 1, OP_MSG), Buffer.alloc(5)]))).toThrow(WireFormatError);
  });

  it('encodes OP_MSG and OP_REPLY answers that point at the request', () => {
    const msg = encodeMsg(5, 7, { ok: 1, skip: undefined });
    expect(readHeader(msg)).toEqual({ length: msg.length, requestId: 5, responseTo: 7, opCode: OP_MSG });
    expect(deserialize(msg.subarray(21))).toEqual({ ok: 1 });
    const reply = encodeReply(6, 3, { ismaster: true });
    expect(readHeader(reply)).toEqual({ length: reply.length, requestId: 6, responseTo: 3, opCode: OP_REPLY });
    expect(reply.readInt32LE(32)).toBe(1); // numberReturned
    expect(deserialize(reply.subarray(36))).toEqual({ ismaster: true });
  });
});
