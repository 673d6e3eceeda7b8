import type { Logger } from '@inv/service-kit';
import { jobMetrics } from '@inv/telemetry';
import type { JobDoc } from '../db/jobs';

const seconds = (from: Date | string, to: Date) => Math.max(0, (to.getTime() - new Date(from).getTime()) / 1000);

/**
 * A finalize job ended: its phases go into the finalize histogram and one info line says how long it took.
 * queue_wait: accepted -> a renderer started it; completion: the documents were reported -> the invoice is
 * OPEN (or the job failed); total: accepted -> ended. The render phase is measured by document-service.
 */
export function recordFinalizeEnded(
  logger: Logger,
  ids: { jobId: string; invoiceId: number },
  job: JobDoc | undefined,
  reportedAt: string,
): void {
  if (!job || (job.status !== 'finished' && job.status !== 'failed')) return; // a redelivery that changed nothing
  const outcome = job.status;
  const { createdAt, startedAt } = job;
  const endedAt = job.finishedAt ?? new Date();
  const total = seconds(createdAt, endedAt);
  if (startedAt) jobMetrics.finalize.observe({ phase: 'queue_wait', outcome }, seconds(createdAt, new Date(startedAt)));
  jobMetrics.finalize.observe({ phase: 'completion', outcome }, seconds(reportedAt, endedAt));
  jobMetrics.finalize.observe({ phase: 'total', outcome }, total);
  logger.info({ jobId: ids.jobId, invoiceId: ids.invoiceId, outcome, durationMs: Math.round(total * 1000) }, `finalize job ${outcome}`);
}
