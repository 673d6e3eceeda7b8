import * as zlib from 'node:zlib';
import { crc32, encodeFrame, scanFrames, tableCrc32 } from './frames';

describe('journal frames', () => {
  it('computes the same CRC-32 as zlib (files move between Node 20 and 24)', () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    expect(tableCrc32(data)).toBe(0x414fa339);
    expect(crc32(data)).toBe(0x414fa339);
    const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
    if (native) expect(native(data)).toBe(tableCrc32(data));
  });

  const frames = Buffer.concat([encodeFrame({ o: 'p', n: 1 }), encodeFrame({ o: 'p', n: 2 }), encodeFrame({ o: 'k' })]);

  it('reads every frame of an intact file', () => {
    const scan = scanFrames(frames);
    expect(scan).toMatchObject({ ok: true, end: frames.length });
    expect(scan.ok && scan.ops.map((f) => f.op)).toEqual([{ o: 'p', n: 1 }, { o: 'p', n: 2 }, { o: 'k' }]);
  });

  it('treats a cut or zero-filled end as a torn tail, and damage before intact frames as damage in the middle', () => {
    const first = encodeFrame({ o: 'p', n: 1 }).length;
    for (const cut of [first + 3, first + 10, frames.length - 1]) {
      const scan = scanFrames(frames.subarray(0, cut));
      expect(scan.ok).toBe(true);
      expect(scan.ok && scan.end).toBeLessThan(cut);
    }
    const zeros = Buffer.concat([frames, Buffer.alloc(4096)]);
    expect(scanFrames(zeros)).toMatchObject({ ok: true, end: frames.length });
    const damaged = Buffer.from(frames);
    damaged[first + 12] ^= 0xff; // inside the second frame's body: its checksum fails, the third frame is intact
    expect(scanFrames(damaged)).toMatchObject({ ok: false, at: first });
  });
});
