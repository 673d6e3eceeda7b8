import { join } from 'node:path';
import { Piscina } from 'piscina';
import { AppError } from '@inv/service-kit';
import type { AttachmentLimits } from '../domain/attachments';
import type { Inspection } from './inspect';
import { kitRunner, type InspectResult, type InspectTask, type KitOptions } from '../workers/inspect-task';
import type { ReceivedDocument } from '../support/receive-body';

export interface Inspector {
  /** Reads and validates one document (AppError for a refusal, as checkDocument). */
  check(doc: ReceivedDocument, xmlMaxBytes: number, attachmentLimits?: AttachmentLimits): Promise<Inspection>;
  /** Compiles (first start) and loads the rule sets in every worker; resolves when all are ready. */
  warmUp(): Promise<void>;
  readonly workers: number;
  close(): Promise<void>;
}

/**
 * An inspection that takes longer than `timeoutMs` (default 60 s) is stopped with its worker: the document is too
 * heavy to check (VALIDATION_TIMEOUT, 422; a received document's job fails with it, once). A full queue: 503 SERVICE_BUSY.
 */
export const INSPECT_TIMEOUT_MS = 60_000;

export function createInspector(kit: KitOptions, workers: number, opts: { nice?: number; timeoutMs?: number } = {}): Inspector {
  const timeoutMs = opts.timeoutMs ?? INSPECT_TIMEOUT_MS;
  const pool =
    workers > 0
      ? new Piscina<InspectTask, InspectResult>({
          filename: __filename.endsWith('.ts') ? join(__dirname, 'inspect.worker.dev.cjs') : join(__dirname, 'inspect.worker.js'),
          workerData: { ...kit, nice: opts.nice },
          minThreads: workers,
          maxThreads: workers,
          idleTimeout: Number.POSITIVE_INFINITY, // the rule sets stay loaded
          // documents wait for a worker in a bounded queue; beyond it the client gets 503 and retries
          maxQueue: workers * 16,
        })
      : undefined;
  const inline = pool ? undefined : kitRunner(kit);
  const run = (task: InspectTask) => {
    if (inline) return inline(task);
    const timeout = task.kind === 'warm-up' ? undefined : AbortSignal.timeout(timeoutMs);
    return pool!.run(task, timeout ? { signal: timeout } : {}).catch((err: unknown) => {
      if (timeout?.aborted)
        throw new AppError(
          'unprocessable',
          `reading and validating the document took longer than ${Math.round(timeoutMs / 1000)} s; it is too heavy to check`,
          { code: 'VALIDATION_TIMEOUT' },
        );
      if ((err as { name?: string })?.name === 'AbortError' || /queue is full/i.test(String((err as Error)?.message)))
        throw new AppError('unavailable', 'the validation workers are busy; retry later', { code: 'SERVICE_BUSY' });
      throw err;
    });
  };
  return {
    workers,
    async check(doc, xmlMaxBytes, attachmentLimits) {
      const result = await run({
        kind: 'check',
        doc: { bytes: doc.bytes, mediaType: doc.mediaType, filename: doc.filename },
        xmlMaxBytes,
        attachmentLimits,
      });
      if (!result.ok) throw new AppError(result.kind, result.message, { code: result.code });
      return result.inspection!;
    },
    async warmUp() {
      // one worker first: on a first start it compiles the stylesheets into the cache, the others then load them
      await run({ kind: 'warm-up' });
      await Promise.all(Array.from({ length: Math.max(0, workers - 1) }, () => run({ kind: 'warm-up' })));
    },
    close: async () => pool?.destroy(),
  };
}
