import type { Request } from 'express';
import busboy from 'busboy';

export type Upload =
  | { ok: true; fields: Record<string, string>; file?: { bytes: Buffer; filename: string } }
  | { ok: false; reason: 'too_large' | 'malformed' };

/** Form fields an upload form may carry besides its file (anything else makes the form malformed). */
const FIELDS = new Set(['csrf', 'idem']);

/**
 * Reads a multipart form with one file and a few short fields, bounded: the file at `maxBytes` (cut at the first
 * byte past it, the rest of the request drained), fields at 256 bytes, at most 3 parts (busboy reports the 4th). Nothing touches the disk.
 */
export function readUpload(req: Request, maxBytes: number): Promise<Upload> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (u: Upload) => {
      if (settled) return;
      settled = true;
      if (!u.ok) {
        req.unpipe();
        req.resume();
      }
      resolve(u);
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fields: FIELDS.size, parts: FIELDS.size + 2, fileSize: maxBytes + 1, fieldSize: 256, fieldNameSize: 16 },
      });
    } catch {
      req.resume();
      return resolve({ ok: false, reason: 'malformed' });
    }
    const fields: Record<string, string> = {};
    let file: { bytes: Buffer; filename: string } | undefined;
    let fileDone: Promise<void> = Promise.resolve();
    bb.on('field', (name, value, info) => {
      if (!FIELDS.has(name) || info.valueTruncated || name in fields) return done({ ok: false, reason: 'malformed' });
      fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return done({ ok: false, reason: 'malformed' });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      fileDone = new Promise<void>((fin) => {
        stream.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) return done({ ok: false, reason: 'too_large' });
          chunks.push(c);
        });
        stream.on('limit', () => done({ ok: false, reason: 'too_large' }));
        stream.on('end', () => {
          if (size > 0) file = { bytes: Buffer.concat(chunks), filename: (info.filename ?? '').slice(0, 200) };
          fin();
        });
      });
    });
    bb.on('partsLimit', () => done({ ok: false, reason: 'malformed' }));
    bb.on('filesLimit', () => done({ ok: false, reason: 'malformed' }));
    bb.on('fieldsLimit', () => done({ ok: false, reason: 'malformed' }));
    bb.on('error', () => done({ ok: false, reason: 'malformed' }));
    bb.on('close', () => void fileDone.then(() => done({ ok: true, fields, ...(file ? { file } : {}) })));
    req.on('error', () => done({ ok: false, reason: 'malformed' }));
    req.pipe(bb);
  });
}
