import { join } from 'node:path';
import { Piscina } from 'piscina';
import { AppError } from '@inv/service-kit';
import type { AttachmentLimits } from '../domain/attachments';
import type { Inspection } from './inspect';
import { kitRunner, type InspectResult, type InspectTask, type KitOptions } from './inspect-task';
import type { ReceivedDocument } from './receive-body';

export interface Inspector {
  /** Reads and validates one document (AppError for a refusal, as checkDocument). */
  check(doc: ReceivedDocument, xmlMaxBytes: number, attachmentLimits?: AttachmentLimits): Promise<Inspection>;
  /** Compiles (first start) and loads the rule sets in every worker; resolves when all are ready. */
  warmUp(): Promise<void>;
  readonly workers: number;
  close(): Promise<void>;
}

/** An inspection that takes this long is stuck (a pathological document): its worker is stopped, the client gets 503. */
const INSPECT_TIMEOUT_MS = 60_000;

/**
 * Validation off the event loop: the Schematron stylesheets run synchronously in SaxonJS for 0.3-1 s per document,
 * which on the service's own thread would stall every other request and the health probes. `workers` threads
 * (piscina) each hold the compiled rule sets; with 0 the documents are checked on the event loop (tests, benches).
 */
export function createInspector(kit: KitOptions, workers: number, opts: { nice?: number } = {}): Inspector {
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
    return pool!.run(task, task.kind === 'warm-up' ? {} : { signal: AbortSignal.timeout(INSPECT_TIMEOUT_MS) }).catch((err: unknown) => {
      const name = (err as { name?: string })?.name;
      if (name === 'AbortError' || /queue is full/i.test(String((err as Error)?.message)))
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
