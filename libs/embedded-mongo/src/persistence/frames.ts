import { deserialize, serialize, type Document } from 'bson';
import * as zlib from 'node:zlib';

/**
 * CRC-32 (IEEE, the one zlib and gzip use). Node 24 has `zlib.crc32`; Node 20 does not, so the same checksum is
 * computed from the standard 256-entry table there (a dozen lines; no package is needed for it), and a data
 * directory written under one Node reads under the other.
 */
const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
let table: Uint32Array | undefined;
export function tableCrc32(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
export const crc32: (data: Uint8Array) => number = native ? (d) => native(d) : tableCrc32;

/** A frame: u32 LE length of the BSON body, u32 LE CRC-32 of the body, the body. */
export const FRAME_HEADER = 8;
/** Larger than any document the server accepts (16 MiB) plus the op around it. */
const MAX_FRAME = 48 * 1024 * 1024;

export function encodeFrame(op: Document): Buffer {
  const body = serialize(op);
  const out = Buffer.allocUnsafe(FRAME_HEADER + body.length);
  out.writeUInt32LE(body.length, 0);
  out.writeUInt32LE(crc32(body), 4);
  out.set(body, FRAME_HEADER);
  return out;
}

/** The op stored in a frame at `off`, or undefined when no complete, intact frame starts there. */
function frameAt(buf: Buffer, off: number): { op: Document; end: number } | undefined {
  if (buf.length - off < FRAME_HEADER + 5) return undefined;
  const len = buf.readUInt32LE(off);
  const end = off + FRAME_HEADER + len;
  if (len < 5 || len > MAX_FRAME || end > buf.length) return undefined;
  // cheap checks first (BSON's own length prefix and terminator) before the checksum
  if (buf.readInt32LE(off + FRAME_HEADER) !== len || buf[end - 1] !== 0) return undefined;
  const body = buf.subarray(off + FRAME_HEADER, end);
  if (crc32(body) !== buf.readUInt32LE(off + 4)) return undefined;
  try {
    return { op: deserialize(body), end };
  } catch {
    return undefined;
  }
}

export type FrameScan =
  | { ok: true; ops: Array<{ op: Document; end: number }>; end: number }
  /** An unreadable frame at `at`, followed by intact ones: the file is damaged in its middle. */
  | { ok: false; at: number };

/**
 * Reads frames from the start. A frame that cannot be read ends the scan: when no intact frame follows anywhere
 * after it, it is a torn tail (a write cut short by a crash) and `end` is where the readable part ends; otherwise
 * the file is damaged in the middle.
 */
export function scanFrames(buf: Buffer): FrameScan {
  const ops: Array<{ op: Document; end: number }> = [];
  let off = 0;
  while (off < buf.length) {
    const frame = frameAt(buf, off);
    if (!frame) {
      for (let p = off + 1; p + FRAME_HEADER + 5 <= buf.length; p++) if (frameAt(buf, p)) return { ok: false, at: off };
      return { ok: true, ops, end: off };
    }
    ops.push(frame);
    off = frame.end;
  }
  return { ok: true, ops, end: off };
}
