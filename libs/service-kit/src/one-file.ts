import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { invalidData } from './errors';

/** A document a request carried: its bytes, the type it was declared as, and from a multipart part the file name. */
export interface ReceivedFile {
  bytes: Buffer;
  /** The raw body's Content-Type, or the multipart part's type (as sent: check the bytes before trusting it). */
  declaredType: string;
  filename?: string;
}

export interface OneFileOptions {
  /** Content-Types taken as a raw body (besides multipart/form-data with one file). */
  types: readonly string[];
  /** The most bytes a body of this declared type may have (a form's part: the largest of `types`). */
  maxBytes: (declaredType: string) => number;
  /** The answer to a body past its limit (a 413 with the service's code). */
  tooLarge: (max: number) => Error;
  /** The answer to a Content-Type other than `types` (a 415 with the service's code). */
  unsupported: (what: string) => Error;
  /** What the body is, for the answer to an empty one ("the request has no <noun>"). */
  noun: string;
}

/**
 * Reads the one document of a request into memory, bounded: a raw body of one of `types`, or multipart/form-data with
 * exactly one file (busboy). The documents read this way (received e-invoices, bank statements) are needed whole by
 * their readers; the limit cuts the stream at the first byte past it, and a declared Content-Length past it is refused
 * before a byte is read.
 */
export async function receiveOneFile(headers: IncomingHttpHeaders, body: Readable, opts: OneFileOptions): Promise<ReceivedFile> {
  const declared = String(headers['content-type'] ?? '')
    .toLowerCase()
    .split(';')[0]!
    .trim();
  if (declared === 'multipart/form-data') return receiveMultipart(headers, body, opts);
  if (!opts.types.includes(declared)) {
    body.resume();
    throw opts.unsupported(`Content-Type ${declared.slice(0, 80) || '(none)'}`);
  }
  const max = opts.maxBytes(declared);
  if (Number(headers['content-length'] ?? 0) > max) {
    body.resume();
    throw opts.tooLarge(max);
  }
  return { bytes: await readBounded(body, max, opts), declaredType: declared };
}

async function readBounded(stream: Readable, max: number, opts: OneFileOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.resume();
      throw opts.tooLarge(max);
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) throw invalidData(`the request has no ${opts.noun}`, [{ path: 'body', message: 'required' }]);
  return Buffer.concat(chunks);
}

const malformed = () => invalidData('the multipart body is malformed', [{ path: 'file', message: 'malformed multipart/form-data' }]);

function receiveMultipart(headers: IncomingHttpHeaders, body: Readable, opts: OneFileOptions): Promise<ReceivedFile> {
  const max = Math.max(...opts.types.map((t) => opts.maxBytes(t)));
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers, defParamCharset: 'utf8', limits: { fileSize: max + 1, files: 1, fields: 0, parts: 2 } });
  } catch {
    body.resume();
    throw invalidData('expected multipart/form-data with one file', [{ path: 'file', message: 'required' }]);
  }
  return new Promise<ReceivedFile>((resolve, reject) => {
    let failed = false;
    let file: Promise<ReceivedFile> | undefined;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      body.unpipe(bb);
      body.resume();
      reject(err);
    };
    bb.on('file', (_name, stream, info) => {
      // busboy destroys a part's stream with an error when the body ends inside it (no closing boundary): every
      // part's stream gets a listener, or that error ends the process
      stream.on('error', () => fail(malformed()));
      if (file) return stream.resume();
      file = (async () => {
        const bytes = await readBounded(stream, max, opts);
        const filename = info.filename ? info.filename.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) : undefined;
        return { bytes, declaredType: info.mimeType, filename: filename || undefined };
      })();
      file.catch(fail);
    });
    bb.on('filesLimit', () => fail(invalidData('send exactly one file', [{ path: 'file', message: 'one file only' }])));
    bb.on('partsLimit', () => fail(invalidData('send exactly one file', [{ path: 'file', message: 'one file only' }])));
    bb.on('error', () => fail(malformed()));
    bb.on('close', () => {
      if (failed) return;
      if (!file) return fail(invalidData('the form has no file', [{ path: 'file', message: 'required' }]));
      file.then(resolve, fail);
    });
    body.on('error', fail);
    body.pipe(bb);
  });
}
