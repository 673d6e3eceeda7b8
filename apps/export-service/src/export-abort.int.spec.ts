import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { unzipSync } from 'fflate';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3, type ObjectStore } from '@inv/objects';
import type { CompanyId } from '@inv/contracts';
import { ExportDataError } from './domain/bookings';
import type { ExportInvoice } from './domain/export-invoice';
import type { ExportDeps } from './support/deps';
import { runExport } from './usecases/run-export';
import { openArchive } from './support/write-archive';

jest.setTimeout(60_000);

/**
 * The ZIP writer when something fails while it writes: the row source (the caller aborts), a PDF read from
 * storage, or the upload itself. Every case ends within seconds and leaves no object at the ZIP's key.
 */
describe('export ZIP writer: errors while writing', () => {
  let s3: EmbeddedS3;
  let objects: ObjectStore;
  const meta = { createdAt: new Date('2026-01-15T10:00:00Z'), consultantNumber: 29098, clientNumber: 55003 };
  // 2 MiB of booking text, far beyond every stream buffer between the writer and the upload
  const manyRows = Array.from({ length: 2000 }, (_, i) => `${i};${'x'.repeat(1000)}\r\n`);
  const key = () => `cmp_w/exports/${randomBytes(4).toString('hex')}/1-DATEV.zip`;
  /** Rejects when `p` has not settled within `ms`: a hang fails the test instead of timing it out. */
  const within = <T>(p: Promise<T>, ms = 5000) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms).unref())]);

  beforeAll(async () => {
    s3 = await startEmbeddedS3();
    objects = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: 'exportw',
      presignTtlSeconds: 60,
    });
    await objects.ensureBucket();
  });
  afterAll(() => s3.stop());

  it('writes a whole ZIP when nothing fails', async () => {
    const k = key();
    await objects.put('cmp_w/a.pdf', Buffer.from('%PDF-1.7 a'), 'application/pdf');
    const archive = openArchive(objects, k, 'EXTF_Buchungsstapel.csv', meta);
    for (const row of manyRows.slice(0, 100)) await archive.write(row);
    const size = await within(
      archive.finish({ documents: [{ guid: 'g-1', filename: 'a.pdf', invoiceNumber: 'RE-1', pdfKey: 'cmp_w/a.pdf' }] }),
    );
    const zip = await objects.get(k);
    expect(zip.length).toBe(size);
    const files = unzipSync(new Uint8Array(zip));
    expect(Object.keys(files).sort()).toEqual(['EXTF_Buchungsstapel.csv', 'a.pdf', 'document.xml']);
    expect(Buffer.from(files['a.pdf']!).toString()).toBe('%PDF-1.7 a');
  });

  it('an abort midway (the row source failed) ends the upload promptly and stores nothing', async () => {
    const k = key();
    const archive = openArchive(objects, k, 'EXTF_Buchungsstapel.csv', meta);
    for (const row of manyRows) await archive.write(row);
    await within(archive.abort(new Error('the invoice cursor failed')));
    expect(await objects.exists(k)).toBe(false);
  });

  it('an abort after a part was uploaded aborts the multipart upload and stores nothing', async () => {
    const k = key();
    const archive = openArchive(objects, k, 'EXTF_Buchungsstapel.csv', meta);
    // random text compresses to about half: well above one upload part (8 MiB)
    for (let i = 0; i < 400; i++) await archive.write(randomBytes(32 * 1024).toString('hex'));
    await within(archive.abort(new Error('the invoice cursor failed')), 20_000);
    expect(await objects.exists(k)).toBe(false);
  });

  it('an abort right after opening ends promptly and stores nothing', async () => {
    const k = key();
    const archive = openArchive(objects, k, 'EXTF_Buchungsstapel.csv', meta);
    await archive.write('head\r\n');
    await within(archive.abort(new Error('the invoice cursor failed')));
    expect(await objects.exists(k)).toBe(false);
  });

  it('a PDF that fails while it is read fails finish promptly with its error and stores nothing', async () => {
    const k = key();
    const failing: ObjectStore = {
      ...objects,
      getStream: async () =>
        Readable.from(
          (async function* () {
            yield Buffer.from('%PDF-1.7 partial');
            throw new Error('connection reset while reading the PDF');
          })(),
        ),
    };
    const archive = openArchive(failing, k, 'EXTF_Buchungsstapel.csv', meta);
    for (const row of manyRows.slice(0, 100)) await archive.write(row);
    await expect(
      within(archive.finish({ documents: [{ guid: 'g-1', filename: 'a.pdf', invoiceNumber: 'RE-1', pdfKey: 'cmp_w/a.pdf' }] })),
    ).rejects.toThrow('connection reset while reading the PDF');
    expect(await objects.exists(k)).toBe(false);
  });

  it('a PDF missing from storage fails finish with a message naming the invoice and stores nothing', async () => {
    const k = key();
    const archive = openArchive(objects, k, 'EXTF_Buchungsstapel.csv', meta);
    for (const row of manyRows.slice(0, 100)) await archive.write(row);
    const finished = archive.finish({
      documents: [{ guid: 'g-9', filename: 'gone.pdf', invoiceNumber: 'RE-9', pdfKey: 'cmp_w/gone.pdf' }],
    });
    await expect(within(finished)).rejects.toThrow(ExportDataError);
    await expect(finished).rejects.toThrow('the PDF of invoice RE-9 is missing from storage');
    expect(await objects.exists(k)).toBe(false);
  });

  it('a failing upload fails the writer promptly with the storage error', async () => {
    const k = key();
    const failing: ObjectStore = {
      ...objects,
      putStream: async (_key, body) => {
        await new Promise((r) => body.once('data', r)); // reads a little, then the store gives up
        body.destroy();
        throw new Error('object storage answered 503');
      },
    };
    const archive = openArchive(failing, k, 'EXTF_Buchungsstapel.csv', meta);
    await expect(
      within(
        (async () => {
          for (const row of manyRows) await archive.write(row);
          await archive.finish({ documents: [] });
        })(),
      ),
    ).rejects.toThrow('object storage answered 503');
    await within(archive.abort(new Error('already failed')));
    expect(await objects.exists(k)).toBe(false);
  });

  describe('an export job whose invoice cursor fails midway', () => {
    const companyId = 'cmp_abort' as CompanyId;
    const invoice = (n: number): ExportInvoice => ({
      invoiceId: n,
      number: `RE-2026-${String(n).padStart(5, '0')}`,
      typeCode: '380',
      invoiceDate: '2026-03-05',
      dueDate: '2026-03-19',
      serviceDate: '2026-02-28',
      customerId: 7,
      customerNumber: 10023,
      buyer: { name: 'Müller & Söhne GmbH', address: { line1: 'Hauptstraße 1', city: 'Köln', postalCode: '50667', countryCode: 'DE' } },
      vatGroups: [{ category: 'S', rate: '19', treatment: 'standard', net: '100.00', vat: '19.00' }],
      totalGross: '119.00',
    });

    /** The job's collaborators in memory, the ZIP in the embedded S3; `failAfter` invoices, the cursor throws. */
    function jobDeps(jobId: string, cursor: { failAfter?: number }) {
      const job = {
        _id: jobId,
        createdAt: new Date(),
        status: 'queued',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        includeMasterData: true,
        includeDocuments: false,
        onlyNew: false,
      };
      const state = { failed: [] as string[], finished: 0, downloads: [] as { key: string }[], released: 0, events: [] as string[] };
      const releaseClaims = async () => {
        state.released++;
      };
      const deps = {
        config: {
          get: async () => ({
            consultantNumber: 29098,
            clientNumber: 55003,
            chartOfAccounts: 'SKR03',
            accountLength: 4,
            fiscalYearStartMonth: 1,
          }),
        },
        mappings: { get: async () => null },
        invoices: {
          claimUnexported: async () => new Set<number>(),
          byIds: async () => [],
          releaseClaims,
          async *streamPeriod() {
            for (let n = 1; n <= 3000; n++) {
              if (cursor.failAfter !== undefined && n > cursor.failAfter) throw new Error('cursor killed by the database');
              yield invoice(n);
            }
          },
        },
        payments: { claimUnexported: async () => undefined, inPeriod: async () => [], releaseClaims },
        supplierInvoices: { claimUnexported: async () => undefined, inPeriod: async () => [], releaseClaims },
        jobs: {
          markStarted: async () => (job.status === 'queued' || job.status === 'started' ? ((job.status = 'started'), { ...job }) : null),
          progress: async () => undefined,
          finish: async () => {
            if (job.status !== 'started') return { matchedCount: 0 };
            job.status = 'finished';
            state.finished++;
            return { matchedCount: 1 };
          },
          fail: async (_c: CompanyId, _id: string, reason: string) => {
            if (job.status !== 'queued' && job.status !== 'started') return { modifiedCount: 0 };
            job.status = 'failed';
            state.failed.push(reason);
            return { modifiedCount: 1 };
          },
        },
        downloads: {
          create: async (docs: { key: string }[]) => {
            state.downloads.push(...docs);
          },
        },
        counters: { next: async () => state.downloads.length + 1 },
        commit: async (fn: (session: unknown, emit: (m: { type: string }) => void) => Promise<void>) =>
          fn({}, (m) => state.events.push(m.type)),
        objects,
        logger: { info: () => undefined, warn: () => undefined },
        maxAttempts: 3,
        now: () => new Date(),
      } as unknown as ExportDeps;
      return { deps, job, state };
    }

    it('is handed back to the bus for a retry promptly, with nothing stored', async () => {
      const jobId = `job_${randomBytes(4).toString('hex')}`;
      const { deps, job, state } = jobDeps(jobId, { failAfter: 2000 });
      await expect(within(runExport(deps, companyId, jobId, 1))).rejects.toThrow('cursor killed by the database');
      expect(job.status).toBe('started'); // the redelivery redoes it
      expect(state.downloads).toEqual([]);
      expect(await objects.exists(`${companyId}/exports/${jobId}/1-DATEV_EXTF_29098_55003_20260101_20261231.zip`)).toBe(false);
    });

    it('fails on its last attempt with a clear reason, its claims released and nothing stored', async () => {
      const jobId = `job_${randomBytes(4).toString('hex')}`;
      const { deps, job, state } = jobDeps(jobId, { failAfter: 2000 });
      await within(runExport(deps, companyId, jobId, 3));
      expect(job.status).toBe('failed');
      expect(state.failed).toEqual(['the export could not be written; please start it again']);
      expect(state.events).toEqual(['export.failed.v1']);
      expect(state.released).toBe(3);
      expect(state.downloads).toEqual([]);
      expect(await objects.exists(`${companyId}/exports/${jobId}/1-DATEV_EXTF_29098_55003_20260101_20261231.zip`)).toBe(false);
    });

    it('redelivered after the failure (or a crash), the job is done again and finishes with one download', async () => {
      const jobId = `job_${randomBytes(4).toString('hex')}`;
      const cursor: { failAfter?: number } = { failAfter: 2000 };
      const { deps, job, state } = jobDeps(jobId, cursor);
      await expect(within(runExport(deps, companyId, jobId, 1))).rejects.toThrow('cursor killed by the database');
      cursor.failAfter = undefined; // the database is back
      await within(runExport(deps, companyId, jobId, 2), 20_000);
      expect(job.status).toBe('finished');
      expect(state.failed).toEqual([]);
      expect(state.downloads.map((d) => d.key)).toEqual([`${companyId}/exports/${jobId}/1-DATEV_EXTF_29098_55003_20260101_20261231.zip`]);
      const files = unzipSync(new Uint8Array(await objects.get(state.downloads[0]!.key)));
      const bookings = Buffer.from(files['EXTF_Buchungsstapel_20260101_20261231.csv'] ?? new Uint8Array()).toString('latin1');
      expect(bookings.split('\r\n').filter((l) => l.includes('RE-2026-')).length).toBe(3000);
      // a further redelivery changes nothing
      await runExport(deps, companyId, jobId, 3);
      expect(state.finished).toBe(1);
    });
  });
});
