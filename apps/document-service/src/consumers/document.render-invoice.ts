import type { CompanyId } from '@inv/contracts';
import type { ObjectStore } from '@inv/objects';
import type { AppBus, CommandOf } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import { jobMetrics, secondsSince } from '@inv/telemetry';
import { RenderFailed, type Renderer } from '../render/render-pool';
import { mayUseLogo, rendersInTestMode } from '../domain/test-mode';

/**
 * Renders and stores the documents of a finalize job, then reports. Idempotent: object keys are derived
 * from the invoice, so a redelivered command overwrites the same objects, and the events carry ids
 * derived from the job, so consumers see a repeat as the same message. Rendering errors that cannot heal
 * (bad data) are reported as render-failed at once; anything else is retried by the bus, and reported as
 * failed on the last attempt so the job never hangs.
 * Exception to `commit`/`publish` (libs/outbox commit.ts): document-service keeps no data in MongoDB (the runtime opens
 * its database, nothing writes to it), its only state is the stored objects; its events are published before the command is acknowledged and carry ids derived from the
 * job, so a crash before the publish redelivers the command, which renders and publishes the same ids again.
 */
export async function handleRenderInvoice(
  deps: { bus: AppBus; objects: ObjectStore; logger: Logger; renderer: Renderer; maxAttempts: number; startedAfterMs: number },
  msg: CommandOf<'document.render-invoice.v1'>,
  attempt: number,
) {
  const { jobId, invoiceId } = msg.data;
  const ids = (what: string) => ({ id: `${what}-${jobId}` });
  const startedAt = new Date().toISOString();
  const started = startedSignal(deps, msg.companyId, { jobId, invoiceId }, ids('render-started'));
  try {
    await render(deps, msg, attempt, startedAt, ids, started);
  } finally {
    started.cancel();
  }
}

/**
 * `document.render-started.v1` is a progress signal for a job a client may be watching: it is sent only when
 * the documents are not reported within `startedAfterMs` (0: always, at once). A fast job goes from queued to
 * finished without it (one message, one job write and one wake-up of the client's long poll fewer); its
 * report carries `startedAt` either way. The report waits for a signal already on its way, so they arrive in
 * order.
 */
function startedSignal(
  deps: { bus: AppBus; logger: Logger; startedAfterMs: number },
  companyId: CompanyId,
  data: { jobId: string; invoiceId: number },
  opts: { id: string },
) {
  let sending: Promise<unknown> | undefined;
  const send = () => {
    sending = deps.bus.publishEvent('document.render-started.v1', companyId, data, opts).catch((err: unknown) => {
      // only a progress signal: the report (or the bus's retry of this command) still tells how the job ended
      deps.logger.warn({ err, jobId: data.jobId }, 'render-started could not be published');
    });
  };
  const timer = deps.startedAfterMs > 0 ? setTimeout(send, deps.startedAfterMs) : undefined;
  if (!timer) send();
  return {
    /** Before the report: no signal from now on, and one already on its way has been sent. */
    async settle() {
      clearTimeout(timer);
      await sending;
    },
    cancel: () => clearTimeout(timer),
  };
}

async function render(
  deps: { bus: AppBus; objects: ObjectStore; logger: Logger; renderer: Renderer; maxAttempts: number },
  msg: CommandOf<'document.render-invoice.v1'>,
  attempt: number,
  startedAt: string,
  ids: (what: string) => { id: string },
  started: { settle(): Promise<void> },
) {
  const { jobId, invoiceId, format, templateId, snapshot } = msg.data;
  // Attachments are read from storage, and only from the company's own prefix.
  const foreign = (msg.data.attachments ?? []).find((a) => !a.key.startsWith(`${msg.companyId}/`));
  if (foreign) {
    await started.settle();
    await deps.bus.publishEvent(
      'document.render-failed.v1',
      msg.companyId,
      { jobId, invoiceId, startedAt, reason: `attachment ${foreign.id} is not stored under this company` },
      ids('render-failed'),
    );
    return;
  }
  let files;
  try {
    files = await Promise.all(
      (msg.data.attachments ?? []).map(async (a) => ({
        id: a.id,
        filename: a.filename,
        contentType: a.contentType,
        description: a.description,
        body: await deps.objects.get(a.key),
      })),
    );
  } catch (err) {
    if (attempt < deps.maxAttempts) throw err; // storage hiccup: let the bus retry
    await started.settle();
    await deps.bus.publishEvent(
      'document.render-failed.v1',
      msg.companyId,
      { jobId, invoiceId, startedAt, reason: 'the attachments could not be read; please retry the finalization' },
      ids('render-failed'),
    );
    return;
  }
  let logo: Buffer | undefined;
  const logoRef = msg.data.logo;
  if (logoRef && mayUseLogo(msg.companyId, logoRef.key)) {
    try {
      logo = await deps.objects.get(logoRef.key);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code !== 'NoSuchKey' && code !== 'NotFound' && attempt < deps.maxAttempts) throw err; // storage hiccup: let the bus retry
      // the company deleted or replaced its logo since the finalization was accepted: the letterhead goes without
      deps.logger.warn({ jobId, invoiceId, code }, 'the logo could not be read; rendering without it');
    }
  }
  let docs;
  try {
    docs = await deps.renderer.invoice(snapshot, format, templateId, {
      attachments: files,
      logo,
      testMode: rendersInTestMode(msg.companyId),
    });
  } catch (err) {
    if (!(err instanceof RenderFailed) && attempt < deps.maxAttempts) throw err; // the renderer failed (a worker died): let the bus retry
    deps.logger.warn({ err, jobId, invoiceId }, 'invoice could not be rendered');
    await started.settle();
    await deps.bus.publishEvent(
      'document.render-failed.v1',
      msg.companyId,
      { jobId, invoiceId, startedAt, reason: `the documents could not be generated: ${(err as Error).message}` },
      ids('render-failed'),
    );
    return;
  }
  try {
    const base = `${msg.companyId}/invoices/${invoiceId}`;
    const pdfKey = `${base}/${docs.pdf.filename}`;
    const xml = docs.xml && {
      key: `${base}/${docs.xml.filename}`,
      filename: docs.xml.filename,
      contentType: 'application/xml',
      size: docs.xml.body.length,
    };
    // both uploads at once (one round trip of the job's latency less); a retry after a failure of either puts both
    // again under the same keys
    await Promise.all([
      deps.objects.put(pdfKey, docs.pdf.body, 'application/pdf'),
      xml && docs.xml ? deps.objects.put(xml.key, docs.xml.body, 'application/xml') : undefined,
    ]);
    await started.settle();
    await deps.bus.publishEvent(
      'document.rendered.v1',
      msg.companyId,
      {
        jobId,
        invoiceId,
        startedAt,
        pdf: { key: pdfKey, filename: docs.pdf.filename, contentType: 'application/pdf', size: docs.pdf.body.length },
        xml,
      },
      ids('rendered'),
    );
  } catch (err) {
    if (attempt < deps.maxAttempts) throw err; // transient (storage, broker): let the bus retry
    await started.settle();
    await deps.bus.publishEvent(
      'document.render-failed.v1',
      msg.companyId,
      { jobId, invoiceId, startedAt, reason: 'the documents could not be stored; please retry the finalization' },
      ids('render-failed'),
    );
  }
}

/** The render phase of the finalize histogram: one delivery of the command, from receipt to its report (or a throw, retried). */
export async function timedRender(work: () => Promise<void>): Promise<void> {
  const start = process.hrtime.bigint();
  try {
    await work();
    jobMetrics.finalize.observe({ phase: 'render', outcome: 'finished' }, secondsSince(start));
  } catch (err) {
    jobMetrics.finalize.observe({ phase: 'render', outcome: 'failed' }, secondsSince(start));
    throw err;
  }
}
