import fc from 'fast-check';
import { MAX_MESSAGE_SIZE } from './codec';
import { MessageFramer } from './framer';

function frame(payload: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeInt32LE(payload.length + 16);
  return Buffer.concat([len, Buffer.alloc(12), payload]);
}

describe('MessageFramer', () => {
  it('reassembles messages however the stream is split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (payloads, cuts) => {
          const messages = payloads.map((p) => frame(Buffer.from(p)));
          const stream = Buffer.concat(messages);
          const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
          const framer = new MessageFramer();
          const out: Buffer[] = [];
          let last = 0;
          for (const p of [...points, stream.length]) {
            const r = framer.push(stream.subarray(last, p));
            expect(r.error).toBeUndefined();
            out.push(...r.messages);
            last = p;
          }
          expect(out.map((b) => b.toString('hex'))).toEqual(messages.map((b) => b.toString('hex')));
          expect(framer.pending).toBe(0);
        },
      ),
    );
  });

  it('reports impossible lengths instead of buffering forever', () => {
    const small = Buffer.alloc(4);
    small.writeInt32LE(3);
    expect(new MessageFramer().push(small).error).toMatch(/below header size/);
    const huge = Buffer.alloc(4);
    huge.writeInt32LE(MAX_MESSAGE_SIZE + 1);
    expect(new MessageFramer().push(huge).error).toMatch(/exceeds/);
  });
});
