import { join } from 'node:path';
import { Piscina } from 'piscina';
import { releaseYoungGenerationFlags } from '@inv/runtime';
import type { InvoiceSnapshot } from '@inv/contracts';
import type { AccountStatement, RenderStatementOptions } from '../pdf';
import type { ReceivedInvoice } from '../pdf/received';
import type { Reminder, RenderReminderOptions } from '../pdf/reminder';
import type { RenderedDocuments, RenderOptions } from '../usecases/render-invoice';
import { asBuffer } from './buffers';
import type { RenderResult, RenderTask } from './render-task';

type ApiFormat = Extract<RenderTask, { kind: 'invoice' }>['format'];

/** The render's own failure (bad data, an unknown template): retrying cannot help, the job is reported failed. */
export class RenderFailed extends Error {}

export interface Renderer {
  /** Throws RenderFailed when the documents cannot be made from this data; any other error is the renderer's (retry). */
  invoice(
    snapshot: InvoiceSnapshot,
    format: ApiFormat,
    templateId: number,
    opts?: RenderOptions,
  ): Promise<RenderedDocuments & { /** the thread that rendered (0: the event loop's) */ thread: number }>;
  statement(statement: AccountStatement, opts?: RenderStatementOptions): Promise<Buffer>;
  reminder(reminder: Reminder, opts?: RenderReminderOptions): Promise<Buffer>;
  /** A received e-invoice's view (inbound-service's reading). */
  received(received: ReceivedInvoice): Promise<Buffer>;
  /** Warms every worker (fonts, a sample render) and answers how long that took, in ms. */
  warmUp(): Promise<number>;
  /** Worker threads rendering (0: on the event loop). */
  readonly workers: number;
  close(): Promise<void>;
}

/** A render that takes this long is stuck: its worker is stopped and the bus retries the job. */
const RENDER_TIMEOUT_MS = 60_000;

/**
 * Renders off the event loop, in a pool of `workers` threads (piscina), so that a large PDF never stalls the
 * service's other messages (presigned links, template checks, the next job's storage writes). With 0 workers
 * it renders on the event loop (what the service did before; for a machine with one core).
 */
export function createRenderer(workers: number, opts: { timeoutMs?: number } = {}): Renderer {
  const timeoutMs = opts.timeoutMs ?? RENDER_TIMEOUT_MS;
  // the service's young generation flags (libs/runtime node-flags.ts) would override the workers' limits below
  if (workers > 0) releaseYoungGenerationFlags();
  const pool =
    workers > 0
      ? new Piscina<RenderTask, RenderResult>({
          filename: workerFile(),
          minThreads: workers,
          maxThreads: workers,
          idleTimeout: Number.POSITIVE_INFINITY, // warm workers stay
          // A worker is a V8 isolate with its own heap. Its young generation kept at 4 MB (instead of the default's
          // 3 x 16): at 8 MB bench:finalize measured document-service's peak RSS 309 -> 283 MB at the same CPU per
          // invoice; 8 -> 4 MB took its idle RSS 156 -> 148-149 MB (target 150), and 600 renders in a worker cost
          // 4.1-6.9 ms of CPU each at either size (this VM's drift is larger than the difference).
          resourceLimits: { maxYoungGenerationSizeMb: 4 },
        })
      : undefined;
  // The rendering code (pdfkit, fontkit, the fonts) is loaded where it runs: in the workers, or here with 0
  // workers. With workers this thread never loads it (document-service's RSS).
  const run: (task: RenderTask) => Promise<RenderResult> = pool
    ? // a worker's warm-up is waited for as long as it takes (start-up); a render is stopped after timeoutMs
      (task) => pool.run(task, task.kind === 'warm-up' ? {} : { signal: AbortSignal.timeout(timeoutMs) })
    : loadInline();
  const done = async (task: RenderTask) => {
    const result = await run(task);
    if (!result.ok) throw new RenderFailed(result.message);
    return result;
  };
  return {
    workers,
    async invoice(snapshot, format, templateId, opts = {}) {
      const { invoice, thread } = await done({ kind: 'invoice', snapshot, format, templateId, opts });
      const docs = invoice!;
      // Buffers come back from a worker as plain Uint8Arrays
      return {
        pdf: { filename: docs.pdf.filename, body: asBuffer(docs.pdf.body) },
        xml: docs.xml ? { filename: docs.xml.filename, body: asBuffer(docs.xml.body) } : undefined,
        thread,
      };
    },
    async statement(statement, opts = {}) {
      return asBuffer((await done({ kind: 'statement', statement, opts })).statement!);
    },
    async reminder(reminder, opts = {}) {
      return asBuffer((await done({ kind: 'reminder', reminder, opts })).reminder!);
    },
    async received(received) {
      return asBuffer((await done({ kind: 'received', received })).received!);
    },
    async warmUp() {
      const started = performance.now();
      // one task per worker: each answers once it has warmed itself up
      await Promise.all(Array.from({ length: Math.max(1, workers) }, () => done({ kind: 'warm-up' })));
      return performance.now() - started;
    },
    close: async () => pool?.destroy(),
  };
}

function loadInline(): (task: RenderTask) => Promise<RenderResult> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when rendering on this thread
  const { preloadFonts } = require('../pdf/fonts') as typeof import('../pdf/fonts');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runRenderTask } = require('./render-task') as typeof import('./render-task');
  preloadFonts();
  return runRenderTask;
}

/**
 * The compiled service (one bundle per service) starts the bundled worker next to it; from source the worker is
 * the TypeScript entry, loaded through tsx (render.worker.dev.cjs).
 */
function workerFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, 'render.worker.dev.cjs') : join(__dirname, 'render.worker.js');
}
