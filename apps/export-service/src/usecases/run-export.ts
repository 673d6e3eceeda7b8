import type { CompanyId } from '@inv/contracts';
import { trace } from '@opentelemetry/api';
import { eventMessage } from '@inv/runtime';
import { jobMetrics } from '@inv/telemetry';
import { BatchWriter } from '../domain/batch';
import { ExportDataError } from '../domain/bookings';
import { splitByFiscalYear } from '../domain/fiscal-year';
import { effectiveMappings } from '../domain/mapping-rules';
import { downloadCounter, type DownloadDoc } from '../db/downloads';
import type { ExportJobResult } from '../db/export-jobs';
import type { ExportDeps } from '../support/deps';
import { openArchive } from '../support/write-archive';

const tracer = trace.getTracer('export-service');

/**
 * Runs an export job (the `export.run-export.v1` command). Idempotent: a finished or failed job is left
 * alone; a job found `started` (the service died mid-run, the command came back) is done again from the
 * start: its ZIP keys are derived from the job, so a redo overwrites the same objects, and the downloads are
 * recorded in the same transaction that finishes the job (unique per job and file), so there is never a
 * second download set. Data the export cannot book fails the job with a message that says what to fix;
 * other errors are retried by the bus and fail the job on the last attempt.
 */
export async function runExport(deps: ExportDeps, companyId: CompanyId, jobId: string, attempt: number): Promise<void> {
  const job = await deps.jobs.markStarted(companyId, jobId, deps.now());
  if (!job) return; // finished, failed or unknown: a redelivery changes nothing
  await tracer.startActiveSpan('export.run', { attributes: { 'export.job_id': jobId, 'export.attempt': attempt } }, async (span) => {
    try {
      const invoices = await run(deps, companyId, job._id, job);
      jobDone(deps, job, 'finished', { invoices });
    } catch (err) {
      span.recordException(err as Error);
      const permanent = err instanceof ExportDataError;
      if (!permanent && attempt < deps.maxAttempts) throw err; // transient (storage, database): the bus retries
      deps.logger.warn({ err, jobId }, 'export job failed');
      await deps.invoices.releaseClaims(companyId, jobId);
      const reason = permanent ? (err as Error).message : 'the export could not be written; please start it again';
      // the failure and its announcement (webhooks: export.failed) in one transaction
      await deps.commit(async (session, emit) => {
        const failed = await deps.jobs.fail(companyId, jobId, reason, deps.now(), session);
        if (failed.modifiedCount === 1) emit(eventMessage('export.failed.v1', companyId, { jobId, reason }, `export-failed:${jobId}`));
      });
      jobDone(deps, job, 'failed', {});
    } finally {
      span.end();
    }
  });
}

/** One info line and one histogram sample per job that ended, timed from the request that created it. */
function jobDone(deps: ExportDeps, job: { _id: string; createdAt: Date }, outcome: 'finished' | 'failed', extra: { invoices?: number }) {
  const seconds = Math.max(0, (deps.now().getTime() - new Date(job.createdAt).getTime()) / 1000);
  jobMetrics.export.observe({ outcome }, seconds);
  deps.logger.info({ jobId: job._id, outcome, durationMs: Math.round(seconds * 1000), ...extra }, `export job ${outcome}`);
}

async function run(
  deps: ExportDeps,
  companyId: CompanyId,
  jobId: string,
  job: { startDate: string; endDate: string; includeMasterData: boolean; includeDocuments: boolean; onlyNew: boolean },
): Promise<number> {
  const [config, saved] = await Promise.all([deps.config.get(companyId), deps.mappings.get(companyId)]);
  if (config.consultantNumber === undefined || config.clientNumber === undefined) {
    throw new ExportDataError(
      'the accounting export configuration lacks consultant_number or client_number; set them with PUT /acctexp/config',
    );
  }
  const mappings = effectiveMappings(config.chartOfAccounts, config.accountLength, saved);
  const createdAt = deps.now();
  const claimed = await deps.invoices.claimUnexported(companyId, jobId, job.startDate, job.endDate, createdAt);
  await deps.jobs.progress(companyId, jobId, 5);

  // Invoices stream from a cursor in booking order; a ZIP per fiscal year opens with its first invoice.
  const slices = splitByFiscalYear(job.startDate, job.endDate, config.fiscalYearStartMonth);
  const options = {
    companyId,
    createdAt,
    consultantNumber: config.consultantNumber,
    clientNumber: config.clientNumber,
    includeMasterData: job.includeMasterData,
    includeDocuments: job.includeDocuments,
  };
  const meta = { createdAt, consultantNumber: config.consultantNumber, clientNumber: config.clientNumber };
  const files: Omit<DownloadDoc, '_id' | 'id'>[] = [];
  let open: { index: number; writer: BatchWriter; key: string; archive: ReturnType<typeof openArchive> } | undefined;
  let total = 0;
  const close = async () => {
    if (!open) return;
    const { writer, archive, key, index } = open;
    open = undefined;
    const size = await archive.finish({ debtorsName: writer.names.debtors, debtors: writer.debtors(), documents: writer.documents });
    files.push({
      companyId,
      jobId,
      index: files.length,
      filename: writer.names.zip,
      key,
      size,
      periodStart: writer.slice.from,
      periodEnd: writer.slice.to,
      invoiceCount: writer.invoiceCount,
      createdAt,
    });
    await deps.jobs.progress(companyId, jobId, 5 + Math.floor((85 * (index + 1)) / slices.length));
  };
  try {
    for await (const inv of deps.invoices.streamPeriod(companyId, {
      from: job.startDate,
      to: job.endDate,
      onlyIds: job.onlyNew ? claimed : undefined,
    })) {
      const index = slices.findIndex((s) => inv.invoiceDate >= s.from && inv.invoiceDate <= s.to);
      if (open && open.index !== index) await close();
      if (!open) {
        const writer = new BatchWriter(slices[index]!, mappings, options);
        const key = `${companyId}/exports/${jobId}/${index + 1}-${writer.names.zip}`;
        open = { index, writer, key, archive: openArchive(deps.objects, key, writer.names.bookings, meta) };
        await open.archive.write(writer.head());
      }
      await open.archive.write(open.writer.add(inv));
      total++;
    }
    await close();
  } catch (err) {
    await open?.archive.abort();
    throw err;
  }

  const ids: number[] = [];
  for (let i = 0; i < files.length; i++) ids.push(await deps.counters.next(downloadCounter(companyId)));
  const result: ExportJobResult =
    total === 0
      ? {
          download_ids: [],
          is_split: false,
          split_reason: null,
          total_invoice_count: 0,
          error: {
            message: `no ${job.onlyNew ? 'new ' : ''}invoices or credit notes between ${job.startDate} and ${job.endDate}`,
            error_code: 'no_invoices_found',
          },
        }
      : {
          download_ids: ids,
          is_split: files.length > 1,
          split_reason: files.length > 1 ? 'year_boundary' : null,
          total_invoice_count: total,
        };
  await deps.commit(async (session, emit) => {
    if (files.length)
      await deps.downloads.create(
        files.map((f, i) => ({ ...f, id: ids[i]! })),
        session,
      );
    const finished = await deps.jobs.finish(companyId, jobId, result, deps.now(), session);
    if (finished.matchedCount !== 1) throw new ExportDataError('the export job was ended by another run'); // rolls the downloads back
    // announced with the finished job (webhooks: export.finished)
    emit(eventMessage('export.finished.v1', companyId, { jobId, downloadIds: ids }, `export-finished:${jobId}`));
  });
  return total;
}
