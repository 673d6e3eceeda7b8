import { once } from 'node:events';
import { PassThrough, Transform } from 'node:stream';
import archiver from 'archiver';
import type { ObjectStore } from '@inv/objects';
import { documentXml } from '../domain/belegbilder';
import { ExportDataError } from '../domain/bookings';
import type { BatchDocument } from '../domain/batch';
import { encodeWindows1252 } from '../domain/extf';

export interface ArchiveMeta {
  createdAt: Date;
  consultantNumber: number;
  clientNumber: number;
}

/** Lines are gathered into chunks of about this size before they enter the ZIP stream. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A ZIP of one fiscal year, streamed into object storage while it is written (archiver -> multipart
 * upload): never whole in memory. The booking file is itself a stream the caller writes lines into as it
 * reads invoices; `finish` adds master data, the Belegbilder document.xml and the PDFs (streamed from
 * storage one at a time) and answers the stored size.
 */
export function openArchive(objects: ObjectStore, key: string, bookingsName: string, meta: ArchiveMeta) {
  const zip = archiver('zip', { zlib: { level: 6 } });
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  const upload = objects.putStream(key, zip.pipe(counter).pipe(new PassThrough()), 'application/zip');
  // archiver errors and a failed upload (which would leave the writer blocked on backpressure) end the write
  const failed = Promise.race([
    new Promise<never>((_, reject) => zip.once('error', reject)),
    upload.then(() => new Promise<never>(() => undefined)),
  ]);
  failed.catch(() => undefined);
  const bookings = new PassThrough();
  zip.append(bookings, { name: bookingsName, date: meta.createdAt });
  let pending = '';

  const flush = async () => {
    if (!pending) return;
    const buf = encodeWindows1252(pending);
    pending = '';
    if (!bookings.write(buf)) await Promise.race([once(bookings, 'drain'), failed]);
  };

  return {
    /** Adds text to the booking file (Windows-1252), respecting backpressure. */
    async write(text: string) {
      pending += text;
      if (pending.length >= CHUNK_CHARS) await flush();
    },
    async finish(rest: { debtorsName?: string; debtors?: string; documents: BatchDocument[] }): Promise<number> {
      await flush();
      bookings.end();
      const date = meta.createdAt;
      if (rest.debtors && rest.debtorsName) zip.append(encodeWindows1252(rest.debtors), { name: rest.debtorsName, date });
      if (rest.documents.length) {
        zip.append(documentXml(rest.documents, { ...meta, description: `Rechnungen ${bookingsName}` }), { name: 'document.xml', date });
        for (const doc of rest.documents) {
          let body;
          try {
            body = await objects.getStream(doc.pdfKey);
          } catch (err) {
            const code = (err as { code?: string }).code;
            if (code === 'NoSuchKey' || code === 'NotFound')
              throw new ExportDataError(
                `the PDF of invoice ${doc.invoiceNumber} is missing from storage; export without include_documents or finalize it again`,
              );
            throw err;
          }
          const consumed = once(zip, 'entry'); // one PDF stream open at a time
          zip.append(body, { name: doc.filename, date });
          await Promise.race([consumed, failed]);
        }
      }
      await Promise.race([zip.finalize(), failed]);
      await upload;
      return size;
    },
    /** Stops writing and waits until the upload has given up (its parts are aborted). */
    async abort() {
      zip.abort();
      bookings.destroy();
      await upload.catch(() => undefined);
    },
  };
}
