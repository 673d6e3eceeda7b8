import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { unsafeCharIn } from '@inv/contracts';
import { AppError, invalidData } from '@inv/service-kit';
import { ATTACHMENT_DESCRIPTION_MAX, ATTACHMENT_MAX_BYTES } from '../domain/attachment-rules';

/** Bytes kept from the start of the file for type sniffing (DOCX/XLSX need a few zip entries). */
const HEAD_BYTES = 64 * 1024;

export interface ReceivedFile {
  path: string;
  size: number;
  sha256: string;
  head: Buffer;
  filename?: string;
  description?: string;
  cleanup(): Promise<void>;
}

const malformed = () => invalidData('the multipart body is malformed', [{ path: 'file', message: 'malformed multipart/form-data' }]);

const tooLarge = () =>
  new AppError('payload_too_large', `an attachment may have at most ${ATTACHMENT_MAX_BYTES} bytes (5 MiB)`, {
    code: 'ATTACHMENT_TOO_LARGE',
  });

/**
 * Reads a multipart/form-data upload as a stream (busboy): field `file` goes to a temporary file while its
 * SHA-256, size and first bytes are taken; the size limit is enforced while streaming, so the upload is cut
 * at the first byte past it and nothing is kept. Field `description` is optional text.
 */
export async function receiveUpload(headers: IncomingHttpHeaders, body: Readable): Promise<ReceivedFile> {
  let bb: busboy.Busboy;
  try {
    // busboy signals `limit` on reaching fileSize: one byte of headroom, the size check below cuts at MAX + 1
    bb = busboy({
      headers,
      defParamCharset: 'utf8',
      limits: { fileSize: ATTACHMENT_MAX_BYTES + 1, files: 1, fields: 4, fieldSize: ATTACHMENT_DESCRIPTION_MAX * 4, parts: 8 },
    });
  } catch {
    throw invalidData('expected a multipart/form-data body with the file in field "file"', [{ path: 'file', message: 'required' }]);
  }
  const dir = await mkdtemp(join(tmpdir(), 'upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    return await new Promise<ReceivedFile>((resolve, reject) => {
      let description: string | undefined;
      let file: Promise<Omit<ReceivedFile, 'description' | 'cleanup'>> | undefined;
      let failed = false;
      const fail = (err: Error) => {
        if (failed) return;
        failed = true;
        body.unpipe(bb);
        body.resume(); // drain what the client still sends; the answer goes out now
        reject(err);
      };
      bb.on('field', (name, value, info) => {
        if (name !== 'description') return;
        if (info.valueTruncated || value.length > ATTACHMENT_DESCRIPTION_MAX) {
          fail(
            invalidData(`description may have at most ${ATTACHMENT_DESCRIPTION_MAX} characters`, [
              { path: 'description', message: `at most ${ATTACHMENT_DESCRIPTION_MAX} characters` },
            ]),
          );
        }
        const text = value.replace(/\r\n?/g, '\n');
        const unsafe = unsafeCharIn(text, true);
        if (unsafe) {
          const message = `must not contain control characters or bidirectional overrides (${unsafe.codePoint} at position ${unsafe.index + 1})`;
          fail(invalidData(`description ${message}`, [{ path: 'description', message }]));
        }
        description = text.trim() || undefined;
      });
      bb.on('file', (name, stream, info) => {
        // busboy destroys a part's stream with an error when the body ends inside it (no closing boundary): every
        // part's stream gets a listener, or that error ends the process (service-kit's multipart-guard test)
        stream.on('error', () => fail(malformed()));
        if (name !== 'file' || file) {
          stream.resume();
          return;
        }
        file = new Promise((ok, ko) => {
          const path = join(dir, 'file');
          const out = createWriteStream(path);
          const hash = createHash('sha256');
          const head: Buffer[] = [];
          let headBytes = 0;
          let size = 0;
          const cut = () => {
            out.destroy();
            stream.resume();
            const err = tooLarge();
            ko(err);
            fail(err);
          };
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > ATTACHMENT_MAX_BYTES) return cut();
            hash.update(chunk);
            if (headBytes < HEAD_BYTES) {
              head.push(chunk.subarray(0, HEAD_BYTES - headBytes));
              headBytes += Math.min(chunk.length, HEAD_BYTES - headBytes);
            }
          });
          stream.on('limit', cut);
          stream.on('error', (err) => {
            out.destroy();
            ko(err);
          });
          stream.pipe(out);
          out.on('error', ko);
          out.on('finish', () => ok({ path, size, sha256: hash.digest('hex'), head: Buffer.concat(head), filename: info.filename }));
        });
        file.catch(() => undefined);
      });
      bb.on('error', () => fail(malformed()));
      bb.on('close', () => {
        if (failed) return;
        if (!file) return fail(invalidData('the form has no file in field "file"', [{ path: 'file', message: 'required' }]));
        file.then((f) => resolve({ ...f, description, cleanup }), fail);
      });
      body.on('error', (err) => fail(err));
      body.pipe(bb);
    });
  } catch (err) {
    await cleanup();
    throw err;
  }
}
