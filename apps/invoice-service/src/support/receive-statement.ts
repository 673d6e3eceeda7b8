import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { AppError, invalidData } from '@inv/service-kit';
import { CAMT_MAX_BYTES } from '../domain/camt053';

/** A camt.053 upload as received: its bytes and, from a multipart part, the file name. */
export interface ReceivedStatement {
  bytes: Buffer;
  filename?: string;
}

const tooLarge = () =>
  new AppError('payload_too_large', `a camt.053 file may have at most ${CAMT_MAX_BYTES} bytes (20 MiB)`, {
    code: 'BANK_STATEMENT_TOO_LARGE',
  });
const unsupported = (what: string) =>
  new AppError(
    'unsupported_media_type',
    `${what}: send the camt.053 file as application/xml (or text/xml), or as the one file of multipart/form-data`,
    {
      code: 'UNSUPPORTED_MEDIA_TYPE',
    },
  );

/**
 * Reads the statement of a request into memory, bounded at 20 MiB (the stream is cut at the first byte past it): a raw
 * body (application/xml, text/xml) or multipart/form-data with one file (busboy). The shape of inbound-service's
 * receive-body.ts (a service's support code, not a library: copied in its minimal form for XML only).
 */
export async function receiveStatement(headers: IncomingHttpHeaders, body: Readable): Promise<ReceivedStatement> {
  const declared = String(headers['content-type'] ?? '')
    .toLowerCase()
    .split(';')[0]!
    .trim();
  if (declared === 'multipart/form-data') return receiveMultipart(headers, body);
  if (declared !== 'application/xml' && declared !== 'text/xml') {
    body.resume();
    throw unsupported(`Content-Type ${declared.slice(0, 80) || '(none)'}`);
  }
  if (Number(headers['content-length'] ?? 0) > CAMT_MAX_BYTES) {
    body.resume();
    throw tooLarge();
  }
  return { bytes: await readBounded(body) };
}

async function readBounded(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > CAMT_MAX_BYTES) {
      stream.resume();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) throw invalidData('the request has no statement', [{ path: 'body', message: 'required' }]);
  return Buffer.concat(chunks);
}

function receiveMultipart(headers: IncomingHttpHeaders, body: Readable): Promise<ReceivedStatement> {
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers, defParamCharset: 'utf8', limits: { fileSize: CAMT_MAX_BYTES + 1, files: 1, fields: 0, parts: 2 } });
  } catch {
    body.resume();
    throw invalidData('expected multipart/form-data with one file', [{ path: 'file', message: 'required' }]);
  }
  return new Promise<ReceivedStatement>((resolve, reject) => {
    let failed = false;
    let file: Promise<ReceivedStatement> | undefined;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      body.unpipe(bb);
      body.resume();
      reject(err);
    };
    bb.on('file', (_name, stream, info) => {
      if (file) return stream.resume();
      file = (async () => {
        const bytes = await readBounded(stream);
        const filename = info.filename ? info.filename.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) : undefined;
        return { bytes, filename: filename || undefined };
      })();
      file.catch(fail);
    });
    bb.on('filesLimit', () => fail(invalidData('send exactly one file', [{ path: 'file', message: 'one file only' }])));
    bb.on('partsLimit', () => fail(invalidData('send exactly one file', [{ path: 'file', message: 'one file only' }])));
    bb.on('error', () =>
      fail(invalidData('the multipart body is malformed', [{ path: 'file', message: 'malformed multipart/form-data' }])),
    );
    bb.on('close', () => {
      if (failed) return;
      if (!file) return fail(invalidData('the form has no file', [{ path: 'file', message: 'required' }]));
      file.then(resolve, fail);
    });
    body.on('error', fail);
    body.pipe(bb);
  });
}
