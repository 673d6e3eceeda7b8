import { trace } from '@opentelemetry/api';
import { buildBatch } from '../domain/batch';
import { ExportDataError } from '../domain/bookings';
import type { ExportInvoice } from '../domain/export-invoice';
import { splitByFiscalYear } from '../domain/fiscal-year';
import { effectiveMappings } from '../domain/mappings';
import type { DownloadDoc } from '../db/downloads';
import type { ExportJobResult } from '../db/export-jobs';
import type { ExportDeps } from './deps';
import { writeArchive } from './write-archive';

const tracer = trace.getTracer('export-service');

/**
 * Runs an export job (the `export.run-export.v1` command). Idempotent: a finished or failed job is left
 * alone; a job found `started` (the service died mid-run, the command came back) is done again from the
 * start: its ZIP keys are derived from the job, so a redo overwrites the same objects, and the downloads are
 * recorded in the same transaction that finishes the job (unique per job and file), so there is never a
 * second download set. Data the export cannot book fails the job with a message that says what to fix;
 * other errors are retried by the bus and fail the job on the last attempt.
 */
export async function runExport(deps: ExportDeps, companyId: string, jobId: string, attempt: number): Promise<void> {
  const job = await deps.jobs.markStarted(companyId, jobId, deps.now());
  if (!job) return; // finished, failed or unknown: a redelivery changes nothing
  await tracer.startActiveSpan('export.run', { attributes: { 'export.job_id': jobId, 'export.attempt': attempt } }, async (span) => {
    try {
      await run(deps, companyId, job._id, job);
    } catch (err) {
      span.recordException(err as Error);
      const permanent = err instanceof ExportDataError;
      if (!permanent && attempt < deps.maxAttempts) throw err; // transient (storage, database): the bus retries
      deps.logger.warn({ err, jobId }, 'export job failed');
      if (job.onlyNew) await deps.invoices.releaseClaims(companyId, jobId);
      await deps.jobs.fail(companyId, jobId, permanent ? (err as Error).message : 'the export could not be written; please start it again', deps.now());
    } finally {
      span.end();
    }
  });
}

async function run(deps: ExportDeps, companyId: string, jobId: string, job: { startDate: string; endDate: string; includeMasterData: boolean; includeDocuments: boolean; onlyNew: boolean }) {
  const [config, saved] = await Promise.all([deps.config.get(companyId), deps.mappings.get(companyId)]);
  if (config.consultantNumber === undefined || config.clientNumber === undefined) {
    throw new ExportDataError('the accounting export configuration lacks consultant_number or client_number; set them with PUT /acctexp/config');
  }
  const mappings = effectiveMappings(config.chartOfAccounts, config.accountLength, saved);
  const createdAt = deps.now();
  if (job.onlyNew) await deps.invoices.claimUnexported(companyId, jobId, job.startDate, job.endDate, createdAt);
  const invoices: ExportInvoice[] = await deps.invoices.inPeriod(companyId, { from: job.startDate, to: job.endDate, onlyNewFor: job.onlyNew ? jobId : undefined });
  await deps.jobs.progress(companyId, jobId, 10);

  if (invoices.length === 0) {
    const result: ExportJobResult = {
      download_ids: [],
      is_split: false,
      split_reason: null,
      total_invoice_count: 0,
      error: { message: `no ${job.onlyNew ? 'new ' : ''}invoices or credit notes between ${job.startDate} and ${job.endDate}`, error_code: 'no_invoices_found' },
    };
    await deps.conn.transaction((session) => deps.jobs.finish(companyId, jobId, result, deps.now(), session));
    return;
  }

  const slices = splitByFiscalYear(job.startDate, job.endDate, config.fiscalYearStartMonth)
    .map((slice) => ({ slice, invoices: invoices.filter((i) => i.invoiceDate >= slice.from && i.invoiceDate <= slice.to) }))
    .filter((s) => s.invoices.length > 0);
  const files: Omit<DownloadDoc, '_id'>[] = [];
  for (const [index, { slice, invoices: inSlice }] of slices.entries()) {
    const batch = buildBatch(slice, inSlice, mappings, {
      companyId,
      createdAt,
      consultantNumber: config.consultantNumber,
      clientNumber: config.clientNumber,
      includeMasterData: job.includeMasterData,
      includeDocuments: job.includeDocuments,
    });
    const key = `${companyId}/exports/${jobId}/${index + 1}-${batch.zipName}`;
    const size = await writeArchive(deps.objects, key, batch, { createdAt, consultantNumber: config.consultantNumber, clientNumber: config.clientNumber });
    files.push({ companyId, jobId, index, filename: batch.zipName, key, size, periodStart: slice.from, periodEnd: slice.to, invoiceCount: inSlice.length, createdAt });
    await deps.jobs.progress(companyId, jobId, 10 + Math.floor((80 * (index + 1)) / slices.length));
  }

  const ids: number[] = [];
  for (let i = 0; i < files.length; i++) ids.push(await deps.counters.next('download-id'));
  const result: ExportJobResult = {
    download_ids: ids,
    is_split: files.length > 1,
    split_reason: files.length > 1 ? 'year_boundary' : null,
    total_invoice_count: invoices.length,
  };
  await deps.conn.transaction(async (session) => {
    await deps.downloads.create(files.map((f, i) => ({ ...f, _id: ids[i]! })), session);
    await deps.invoices.markExported(companyId, jobId, invoices.map((i) => i.invoiceId), deps.now(), session);
    const finished = await deps.jobs.finish(companyId, jobId, result, deps.now(), session);
    if (finished.matchedCount !== 1) throw new ExportDataError('the export job was ended by another run'); // rolls the downloads back
  });
}
