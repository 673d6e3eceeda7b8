import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { AppError, invalidData } from '@inv/service-kit';

export interface ReceivedDocument {
  bytes: Buffer;
  /** From the Content-Type (raw body) or the file part's type, and the first bytes. */
  mediaType: 'application/xml' | 'application/pdf';
  filename?: string;
}

const tooLarge = (max: number) =>
  new AppError('payload_too_large', `the document is larger than ${max} bytes`, { code: 'DOCUMENT_TOO_LARGE' });
const unsupported = (what: string) =>
  new AppError(
    'unsupported_media_type',
    `${what}: send application/xml or application/pdf, raw or as the one file of multipart/form-data`,
    {
      code: 'UNSUPPORTED_FORMAT',
    },
  );

/** The media type from the bytes first (what the document is), the declared type only to refuse others. */
function mediaTypeOf(bytes: Buffer, declared: string): ReceivedDocument['mediaType'] {
  if (bytes.subarray(0, 1024).includes('%PDF-')) return 'application/pdf';
  const head = bytes
    .subarray(0, 64)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  if (head.startsWith('<')) return 'application/xml';
  throw unsupported(`the ${declared || 'body'} is neither XML nor PDF`);
}

/**
 * Reads the document of a request into memory, bounded: a raw body (application/xml, text/xml,
 * application/pdf) or multipart/form-data with one file (busboy). Documents are at most a few MB, and
 * the readers (SaxonJS, pdf-lib) need them whole anyway; the size limit cuts the stream at the first byte
 * past it. `maxBytes(type)` is the limit per media type.
 */
export async function receiveDocument(
  headers: IncomingHttpHeaders,
  body: Readable,
  maxBytes: (type: ReceivedDocument['mediaType']) => number,
): Promise<ReceivedDocument> {
  const contentType = String(headers['content-type'] ?? '').toLowerCase();
  const hardMax = Math.max(maxBytes('application/xml'), maxBytes('application/pdf'));
  const declared = contentType.split(';')[0]!.trim();
  if (declared === 'multipart/form-data') return receiveMultipart(headers, body, hardMax, maxBytes);
  if (!['application/xml', 'text/xml', 'application/pdf'].includes(declared)) {
    body.resume();
    throw unsupported(`Content-Type ${declared.slice(0, 80) || '(none)'}`);
  }
  const declaredLength = Number(headers['content-length'] ?? 0);
  const max = maxBytes(declared === 'application/pdf' ? 'application/pdf' : 'application/xml');
  if (declaredLength > max) {
    body.resume();
    throw tooLarge(max);
  }
  const bytes = await readBounded(body, max);
  const mediaType = mediaTypeOf(bytes, declared);
  if (bytes.length > maxBytes(mediaType)) throw tooLarge(maxBytes(mediaType));
  return { bytes, mediaType };
}

async function readBounded(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.resume();
      throw tooLarge(max);
    }
    chunks.push(chunk as Buffer);
  }
  if (size === 0) throw invalidData('the request has no document', [{ path: 'body', message: 'required' }]);
  return Buffer.concat(chunks);
}

function receiveMultipart(
  headers: IncomingHttpHeaders,
  body: Readable,
  hardMax: number,
  maxBytes: (type: ReceivedDocument['mediaType']) => number,
): Promise<ReceivedDocument> {
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers, defParamCharset: 'utf8', limits: { fileSize: hardMax + 1, files: 1, fields: 0, parts: 2 } });
  } catch {
    body.resume();
    throw invalidData('expected multipart/form-data with one file', [{ path: 'file', message: 'required' }]);
  }
  return new Promise<ReceivedDocument>((resolve, reject) => {
    let failed = false;
    let file: Promise<ReceivedDocument> | undefined;
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
        const bytes = await readBounded(stream, hardMax);
        const mediaType = mediaTypeOf(bytes, info.mimeType);
        if (bytes.length > maxBytes(mediaType)) throw tooLarge(maxBytes(mediaType));
        const filename = info.filename ? info.filename.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) : undefined;
        return { bytes, mediaType, filename: filename || undefined };
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
