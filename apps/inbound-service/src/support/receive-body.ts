import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError, receiveOneFile } from '@inv/service-kit';

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
 * Reads the document of a request into memory, bounded (service-kit's receiveOneFile: a raw body of application/xml,
 * text/xml or application/pdf, or multipart/form-data with one file), then tells XML from PDF by its bytes and holds it
 * to that type's limit. Documents are at most a few MB, and the readers (SaxonJS, pdf-lib) need them whole anyway.
 * `maxBytes(type)` is the limit per media type.
 */
export async function receiveDocument(
  headers: IncomingHttpHeaders,
  body: Readable,
  maxBytes: (type: ReceivedDocument['mediaType']) => number,
): Promise<ReceivedDocument> {
  const { bytes, declaredType, filename } = await receiveOneFile(headers, body, {
    types: ['application/xml', 'text/xml', 'application/pdf'],
    maxBytes: (declared) => maxBytes(declared === 'application/pdf' ? 'application/pdf' : 'application/xml'),
    tooLarge,
    unsupported,
    noun: 'document',
  });
  const mediaType = mediaTypeOf(bytes, declaredType);
  if (bytes.length > maxBytes(mediaType)) throw tooLarge(maxBytes(mediaType));
  return { bytes, mediaType, ...(filename ? { filename } : {}) };
}
