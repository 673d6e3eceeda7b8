import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError, receiveOneFile } from '@inv/service-kit';
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
 * body (application/xml, text/xml) or multipart/form-data with one file (service-kit's receiveOneFile).
 */
export async function receiveStatement(headers: IncomingHttpHeaders, body: Readable): Promise<ReceivedStatement> {
  const { bytes, filename } = await receiveOneFile(headers, body, {
    types: ['application/xml', 'text/xml'],
    maxBytes: () => CAMT_MAX_BYTES,
    tooLarge,
    unsupported,
    noun: 'statement',
  });
  return { bytes, ...(filename ? { filename } : {}) };
}
