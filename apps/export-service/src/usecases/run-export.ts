import type { CompanyId } from '@inv/contracts';
import { trace } from '@opentelemetry/api';
import { eventMessage } from '@inv/runtime';
import { jobMetrics } from '@inv/telemetry';
import { BatchWriter } from '../domain/batch';
import { ExportDataError } from '../domain/bookings';
import { splitByFiscalYear } from '../domain/fiscal-year';
import { supplierRateOf } from '../domain/exchange-rate';
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
      const counts = await run(deps, companyId, job._id, job);
      jobDone(deps, job, 'finished', counts);
    } catch (err) {
      span.recordException(err as Error);
      const permanent = err instanceof ExportDataError;
      if (!permanent && attempt < deps.maxAttempts) throw err; // transient (storage, database): the bus retries
      deps.logger.warn({ err, jobId }, 'export job failed');
      await Promise.all([
        deps.invoices.releaseClaims(companyId, jobId),
        deps.payments.releaseClaims(companyId, jobId),
        deps.supplierInvoices.releaseClaims(companyId, jobId),
      ]);
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
function jobDone(
  deps: ExportDeps,
  job: { _id: string; createdAt: Date },
  outcome: 'finished' | 'failed',
  extra: { invoices?: number; payments?: number; supplierInvoices?: number },
) {
  const seconds = Math.max(0, (deps.now().getTime() - new Date(job.createdAt).getTime()) / 1000);
  jobMetrics.export.observe({ outcome }, seconds);
  deps.logger.info({ jobId: job._id, outcome, durationMs: Math.round(seconds * 1000), ...extra }, `export job ${outcome}`);
}

async function run(
  deps: ExportDeps,
  companyId: CompanyId,
  jobId: string,
  job: {
    startDate: string;
    endDate: string;
    includeMasterData: boolean;
    includeDocuments: boolean;
    onlyNew: boolean;
    exchangeRates?: Record<string, string>;
  },
): Promise<{ invoices: number; payments: number; supplierInvoices: number }> {
  const [config, saved] = await Promise.all([deps.config.get(companyId), deps.mappings.get(companyId)]);
  if (config.consultantNumber === undefined || config.clientNumber === undefined) {
    throw new ExportDataError(
      'the accounting export configuration lacks consultant_number or client_number; set them with PUT /acctexp/config',
    );
  }
  const mappings = effectiveMappings(config.chartOfAccounts, config.accountLength, saved);
  const createdAt = deps.now();
  const claimed = await deps.invoices.claimUnexported(companyId, jobId, job.startDate, job.endDate, createdAt);
  await deps.payments.claimUnexported(companyId, jobId, job.startDate, job.endDate);
  await deps.supplierInvoices.claimUnexported(companyId, jobId, job.startDate, job.endDate);
  const onlyJob = job.onlyNew ? jobId : undefined;
  // Payments and received invoices of the period are held in memory (far fewer than invoices; the invoices stream).
  const [payments, supplierInvoices] = await Promise.all([
    deps.payments.inPeriod(companyId, { from: job.startDate, to: job.endDate, onlyJob }),
    deps.supplierInvoices.inPeriod(companyId, { from: job.startDate, to: job.endDate, onlyJob }),
  ]);
  // a received invoice in another currency without a stated rate fails the job before anything is written
  for (const s of supplierInvoices) supplierRateOf(s, job.exchangeRates);
  const paidInvoices = new Map(
    (await deps.invoices.byIds(companyId, [...new Set(payments.map((p) => p.invoiceId))])).map((i) => [i.invoiceId, i]),
  );
  await deps.jobs.progress(companyId, jobId, 5);

  // Invoices stream from a cursor in booking order; a ZIP per fiscal year opens with its first booking (invoice,
  // payment or received invoice), and its payment and supplier rows follow its invoices.
  const slices = splitByFiscalYear(job.startDate, job.endDate, config.fiscalYearStartMonth);
  const options = {
    companyId,
    createdAt,
    consultantNumber: config.consultantNumber,
    clientNumber: config.clientNumber,
    includeMasterData: job.includeMasterData,
    includeDocuments: job.includeDocuments,
    exchangeRates: job.exchangeRates ?? {},
  };
  const meta = { createdAt, consultantNumber: config.consultantNumber, clientNumber: config.clientNumber };
  const sliceOf = (date: string) => slices.findIndex((s) => date >= s.from && date <= s.to);
  const paymentsBySlice = slices.map(() => [] as typeof payments);
  for (const p of payments) paymentsBySlice[sliceOf(p.date)]?.push(p);
  const suppliersBySlice = slices.map(() => [] as typeof supplierInvoices);
  for (const s of supplierInvoices) suppliersBySlice[sliceOf(s.issueDate)]?.push(s);
  const paymentIds: number[] = [];
  let paymentTotal = 0;
  let supplierTotal = 0;
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
  const ensureOpen = async (index: number) => {
    if (open && open.index !== index) await close();
    if (!open) {
      const writer = new BatchWriter(slices[index]!, mappings, options);
      const key = `${companyId}/exports/${jobId}/${index + 1}-${writer.names.zip}`;
      open = { index, writer, key, archive: openArchive(deps.objects, key, writer.names.bookings, meta) };
      await open.archive.write(writer.head());
    }
    return open;
  };
  // Every slice before `upTo` gets its payment and supplier rows after its invoices and is closed; a slice with no
  // invoice but with payments or received invoices opens here.
  let done = 0;
  const finishSlicesBefore = async (upTo: number) => {
    for (; done < upTo; done++) {
      const ps = paymentsBySlice[done]!;
      const ss = suppliersBySlice[done]!;
      if (ps.length || ss.length) {
        const o = await ensureOpen(done);
        for (const p of ps) await o.archive.write(o.writer.addPayment(p, paidInvoices.get(p.invoiceId)));
        for (const s of ss) await o.archive.write(o.writer.addSupplierInvoice(s));
        paymentIds.push(...o.writer.paymentIds.splice(0));
        paymentTotal += ps.length;
        supplierTotal += ss.length;
      }
      if (open?.index === done) await close();
    }
  };
  try {
    for await (const inv of deps.invoices.streamPeriod(companyId, {
      from: job.startDate,
      to: job.endDate,
      onlyIds: job.onlyNew ? claimed : undefined,
    })) {
      const index = sliceOf(inv.invoiceDate);
      await finishSlicesBefore(index);
      const o = await ensureOpen(index);
      await o.archive.write(o.writer.add(inv));
      total++;
    }
    await finishSlicesBefore(slices.length);
  } catch (err) {
    // an error while writing (the invoice cursor, a PDF, the upload): the open ZIP is never stored, and the ZIPs
    // of the slices already written go too (no download points at them; a redo writes them again)
    await open?.archive.abort(err instanceof Error ? err : new Error(String(err)));
    await Promise.all(files.map((f) => deps.objects.remove(f.key).catch(() => undefined)));
    throw err;
  }

  const ids: number[] = [];
  for (let i = 0; i < files.length; i++) ids.push(await deps.counters.next(downloadCounter(companyId)));
  const counts = { invoices: total, payments: paymentTotal, supplierInvoices: supplierTotal };
  const extra = {
    ...(paymentTotal ? { total_payment_count: paymentTotal } : {}),
    ...(supplierTotal ? { total_supplier_invoice_count: supplierTotal } : {}),
  };
  const result: ExportJobResult =
    total + paymentTotal + supplierTotal === 0
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
          ...extra,
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
    // the payments it contained can no longer be reversed (invoice-service marks them)
    if (paymentIds.length)
      emit(eventMessage('export.payments-exported.v1', companyId, { jobId, paymentIds }, `payments-exported:${jobId}`));
  });
  return counts;
}
