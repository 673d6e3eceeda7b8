import { threadId } from 'node:worker_threads';
import type { InvoiceSnapshot } from '@inv/contracts';
import { renderStatementPdf, type AccountStatement, type RenderStatementOptions } from '../pdf';
import { renderReceivedPdf, type ReceivedInvoice } from '../pdf/received';
import { renderReminderPdf, type Reminder, type RenderReminderOptions } from '../pdf/reminder';
import { renderInvoiceDocuments, type RenderedDocuments, type RenderOptions } from '../usecases/render-invoice';
import { warmUp } from '../usecases/warm-up';
import { asBuffer } from './buffers';

type ApiFormat = Parameters<typeof renderInvoiceDocuments>[1];

/** What a render worker is asked to do (structured-cloned across the thread boundary: no functions, Buffers arrive as Uint8Array). */
export type RenderTask =
  | { kind: 'invoice'; snapshot: InvoiceSnapshot; format: ApiFormat; templateId: number; opts: RenderOptions }
  | { kind: 'statement'; statement: AccountStatement; opts: RenderStatementOptions }
  | { kind: 'reminder'; reminder: Reminder; opts: RenderReminderOptions }
  | { kind: 'received'; received: ReceivedInvoice }
  | { kind: 'warm-up' };

/**
 * The answer: a render's own failure (bad data, an unknown template) is an answer, not an exception, so the caller can
 * tell it from a worker that died (which the bus should retry).
 */
export type RenderResult =
  | {
      ok: true;
      invoice?: RenderedDocuments;
      statement?: Uint8Array;
      reminder?: Uint8Array;
      received?: Uint8Array;
      warmUpMs?: number;
      /** 0: the main thread */ thread: number;
    }
  | { ok: false; message: string };

/**
 * After the warm-up, the worker gives back what loading the rendering code and the sample render left behind, as each
 * service's main thread does after its start (libs/service-kit startup-garbage.ts, not imported here: the worker
 * bundle stays free of the API's packages). V8's `gc()` exists where the process was started with `--expose-gc`
 * (the services' flag, which piscina's workers inherit); elsewhere nothing happens.
 */
function collectWarmUpGarbage(): void {
  const gc = (globalThis as { gc?: (options: object) => void }).gc;
  if (typeof gc === 'function') gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/** Runs one task; used by the worker thread and, with RENDER_WORKERS=0, on the event loop. */
export async function runRenderTask(task: RenderTask): Promise<RenderResult> {
  try {
    switch (task.kind) {
      case 'invoice': {
        const { attachments, logo, ...rest } = task.opts;
        const opts: RenderOptions = {
          ...rest,
          logo: logo ? asBuffer(logo) : undefined,
          attachments: attachments?.map((a) => ({ ...a, body: asBuffer(a.body) })),
        };
        return { ok: true, invoice: await renderInvoiceDocuments(task.snapshot, task.format, task.templateId, opts), thread: threadId };
      }
      case 'statement': {
        const { logo, ...rest } = task.opts;
        const opts: RenderStatementOptions = { ...rest, logo: logo ? asBuffer(logo) : undefined };
        return { ok: true, statement: await renderStatementPdf(task.statement, opts), thread: threadId };
      }
      case 'reminder': {
        const { logo, ...rest } = task.opts;
        const opts: RenderReminderOptions = { ...rest, logo: logo ? asBuffer(logo) : undefined };
        return { ok: true, reminder: await renderReminderPdf(task.reminder, opts), thread: threadId };
      }
      case 'received':
        return { ok: true, received: await renderReceivedPdf(task.received), thread: threadId };
      case 'warm-up': {
        const warmUpMs = await warmUp();
        collectWarmUpGarbage();
        return { ok: true, warmUpMs, thread: threadId };
      }
    }
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
