import { once } from 'node:events';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
  // archiver -> byte counter -> upload body as one pipeline: an error in any of them (archiver's own, a source it
  // reads, or the store giving up on the body) destroys all three, so the upload stops and aborts its parts.
  const body = new PassThrough();
  const upload = objects.putStream(key, body, 'application/zip');
  // a store that rejects without touching the body still ends the pipeline
  upload.catch((err: unknown) => body.destroy(err instanceof Error ? err : new Error(String(err))));
  const stored = Promise.all([pipeline(zip, counter, body), upload]);
  // settles only on the first failure: raced against every wait of the writer so that none outlives it
  const failed = stored.then(() => new Promise<never>(() => undefined));
  failed.catch(() => undefined);
  const bookings = new PassThrough();
  zip.append(bookings, { name: bookingsName, date: meta.createdAt });
  let pending = '';
  let reading: Readable | undefined; // the PDF archiver is reading, if any
  /**
   * A stream source as an archive entry. archiver re-pipes a source with `.pipe()`, which drops its errors (the
   * entry would wait forever for its end); through a pipeline the source's error ends the whole archive.
   */
  const entryOf = (source: Readable) => {
    const entry = new PassThrough();
    pipeline(source, entry).catch((err: Error) => zip.destroy(err));
    return entry;
  };

  /** Ends the write with `reason`: the pipeline is destroyed and the upload aborted; waits until it gave up. */
  const abort = async (reason: Error) => {
    zip.abort(); // archiver takes no more entries
    bookings.destroy();
    reading?.destroy();
    zip.destroy(reason);
    await stored.catch(() => undefined);
  };

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
      try {
        await flush();
        bookings.end();
        const date = meta.createdAt;
        if (rest.debtors && rest.debtorsName) zip.append(encodeWindows1252(rest.debtors), { name: rest.debtorsName, date });
        if (rest.documents.length) {
          zip.append(documentXml(rest.documents, { ...meta, description: `Rechnungen ${bookingsName}` }), { name: 'document.xml', date });
          for (const doc of rest.documents) {
            let pdf: Readable;
            try {
              pdf = await objects.getStream(doc.pdfKey);
            } catch (err) {
              const code = (err as { code?: string }).code;
              if (code === 'NoSuchKey' || code === 'NotFound')
                throw new ExportDataError(
                  `the PDF of invoice ${doc.invoiceNumber} is missing from storage; export without include_documents or finalize it again`,
                );
              throw err;
            }
            const consumed = once(zip, 'entry'); // one PDF stream open at a time
            reading = entryOf(pdf);
            zip.append(reading, { name: doc.filename, date });
            await Promise.race([consumed, failed]);
            reading = undefined;
          }
        }
        await Promise.all([zip.finalize(), stored]);
        return size;
      } catch (err) {
        await abort(err instanceof Error ? err : new Error(String(err)));
        throw err;
      }
    },
    /** Stops writing (nothing is stored at the key) and waits until the upload has given up (its parts are aborted). */
    abort: (reason: Error = new Error('the export was aborted')) => abort(reason),
  };
}
