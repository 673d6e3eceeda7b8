import { once } from 'node:events';
import { PassThrough, Transform } from 'node:stream';
import archiver from 'archiver';
import type { ObjectStore } from '@inv/objects';
import { documentXml } from '../domain/belegbilder';
import { ExportDataError } from '../domain/bookings';
import type { BatchFiles } from '../domain/batch';
import { encodeWindows1252 } from '../domain/extf';

export interface ArchiveMeta {
  createdAt: Date;
  consultantNumber: number;
  clientNumber: number;
}

/**
 * Zips one fiscal year's files with archiver and streams the ZIP into object storage while it is written:
 * the CSVs (Windows-1252), and with documents the PDFs (streamed from storage one at a time) and the
 * Belegbilder document.xml. Answers the stored size. Never holds the whole ZIP in memory.
 */
export async function writeArchive(objects: ObjectStore, key: string, files: BatchFiles, meta: ArchiveMeta): Promise<number> {
  const zip = archiver('zip', { zlib: { level: 6 } });
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  const sink = new PassThrough();
  const upload = objects.putStream(key, zip.pipe(counter).pipe(sink), 'application/zip');
  // archiver errors and a failed upload (which would leave the archive blocked on backpressure) end the write
  const failed = Promise.race([
    new Promise<never>((_, reject) => zip.once('error', reject)),
    upload.then(() => new Promise<never>(() => undefined)),
  ]);
  failed.catch(() => undefined);
  const date = meta.createdAt;
  const write = async () => {
    zip.append(encodeWindows1252(files.bookings), { name: files.bookingsName, date });
    if (files.debtors && files.debtorsName) zip.append(encodeWindows1252(files.debtors), { name: files.debtorsName, date });
    if (files.documents.length) {
      zip.append(documentXml(files.documents, { ...meta, description: `Rechnungen ${files.bookingsName}` }), { name: 'document.xml', date });
      for (const doc of files.documents) {
        let body;
        try {
          body = await objects.getStream(doc.pdfKey);
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (code === 'NoSuchKey' || code === 'NotFound') throw new ExportDataError(`the PDF of invoice ${doc.invoiceNumber} is missing from storage; export without include_documents or finalize it again`);
          throw err;
        }
        // one PDF stream open at a time: wait until archiver has consumed this entry
        const consumed = once(zip, 'entry');
        zip.append(body, { name: doc.filename, date });
        await Promise.race([consumed, failed]);
      }
    }
    await zip.finalize();
  };
  try {
    await Promise.race([write(), failed]);
    await upload;
  } catch (err) {
    zip.abort();
    sink.destroy();
    await upload.catch(() => undefined);
    throw err;
  }
  return size;
}
