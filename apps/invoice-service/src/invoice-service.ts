import { EventEmitter } from 'node:events';
import { connectObjectStore } from '@inv/objects';
import { createCounters, createServiceRuntime } from '@inv/runtime';
import { createPeerDataCache, openPeerDataRedis } from '@inv/service-kit';
import { peerDataMetrics } from '@inv/telemetry';
import type { InvoiceConfig } from './config';
import { onRenderFailed } from './consumers/document.render-failed';
import { onRenderStarted } from './consumers/document.render-started';
import { onRendered } from './consumers/document.rendered';
import { handleSendMail } from './consumers/mail.send';
import { onMailFailed } from './consumers/mail.failed';
import { onMailSent } from './consumers/mail.sent';
import {
  attachmentsRepo,
  draftCache,
  invoicesRepo,
  jobsRepo,
  numberingRepo,
  positionIdsPerCompany,
  productsRepo,
  type JobDoc,
} from './invoices';
import { UPLOAD_PATHS, attachmentRoutes, invoiceRoutes, numberingRoutes, productRoutes } from './invoices/routes';
import { bankStatementsRepo, invoiceSettlement, paymentsRepo, remindersRepo } from './receivables';
import { STATEMENT_UPLOAD_PATHS, bankStatementRoutes, paymentRoutes, reminderRoutes } from './receivables/routes';
import { createMailSender, emailsRepo, testMailsRepo } from './mail';
import { emailRoutes, testMailRoutes } from './mail/routes';
import { reminderRun } from './workers/reminder-run';
import { onPaymentsExported } from './consumers/export.payments-exported';
import type { InvoiceDeps } from './deps';
import { peerData } from './platform';

/** Invoices, positions, numbering, validation, lifecycle and finalize jobs. */
export async function createInvoiceService(config: InvoiceConfig) {
  if (!config.SMTP_URL && config.NODE_ENV === 'production') {
    throw new Error('SMTP_URL is not set: invoice e-mails need an SMTP server in production (e.g. smtp://user:pass@mail.example.com:587)');
  }
  const objects = await connectObjectStore(config);
  const rt = await createServiceRuntime({
    service: 'invoice-service',
    database: 'invoicing_invoice',
    port: config.PORT,
    env: config,
    nonJsonBodyPaths: [...UPLOAD_PATHS, ...STATEMENT_UPLOAD_PATHS],
    testFiles: objects,
  });
  const invoices = invoicesRepo(rt.conn);
  const jobs = jobsRepo(rt.conn);
  const attachments = attachmentsRepo(rt.conn);
  const emails = emailsRepo(rt.conn);
  const testMails = testMailsRepo(rt.conn);
  const numbering = numberingRepo(rt.conn);
  const products = productsRepo(rt.conn);
  const reminders = remindersRepo(rt.conn);
  const payments = paymentsRepo(rt.conn);
  const bankStatements = bankStatementsRepo(rt.conn);
  await bankStatements.init();
  await Promise.all([
    numbering.init(),
    products.init(),
    invoices.init(),
    jobs.init(),
    attachments.init(),
    emails.init(),
    testMails.init(),
    payments.init(),
  ]);
  const movedSequences = await numbering.adoptCreditNotePrefixAcrossCompanies(new Date());
  if (movedSequences > 0) rt.logger.info({ sequences: movedSequences }, 'credit note sequences moved from GS- to RK- (values kept)');
  await reminders.init();
  // a draft's change and the message announcing it are one write: the relay publishes the messages kept in drafts too
  rt.keepPendingIn(invoices.pendingSource);
  if (!config.SMTP_URL) rt.logger.warn('SMTP_URL is unset: e-mails are rendered but not delivered (npm start runs maildev and sets it)');
  const sender = createMailSender(config.SMTP_URL);
  const counters = createCounters(rt.conn);
  // copies of seller profiles and billing data, checked against their owners' change tokens (not a readiness
  // condition: without Redis every lookup asks the owner)
  const peerRedis = config.PEER_DATA_CACHE_TTL_MS > 0 ? openPeerDataRedis(config.REDIS_URL, config.REDIS_PREFIX) : undefined;
  peerRedis?.on('error', () => undefined); // the cache logs when it has to ask the owners instead
  const peerCache = createPeerDataCache({
    redis: peerRedis,
    ttlMs: config.PEER_DATA_CACHE_TTL_MS,
    max: config.PEER_DATA_CACHE_MAX,
    logger: rt.logger,
    onLookup: (kind, outcome) => peerDataMetrics.lookups.inc({ kind, outcome }),
  });
  const deps: InvoiceDeps = {
    invoices,
    drafts: draftCache({ ttlMs: config.DRAFT_CACHE_TTL_MS }),
    jobs,
    attachments,
    emails,
    testMails,
    numbering,
    products,
    reminders,
    payments,
    bankStatements,
    mail: {
      sender,
      from: config.MAIL_FROM,
      maxAttempts: config.BUS_RETRY_DELAYS_MS.length + 1,
      inFlight: new Set(),
      limits: { companyPerDay: config.EMAIL_DAILY_LIMIT_COMPANY, invoicePerDay: config.EMAIL_DAILY_LIMIT_INVOICE },
      freeRecipients: config.EMAIL_FREE_RECIPIENTS,
    },
    objects,
    presignTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS,
    counters,
    positionIds: positionIdsPerCompany(counters, (companyId) => invoices.maxPositionId(companyId)),
    commit: rt.commit,
    publish: rt.publish,
    handOver: rt.handOver,
    bus: rt.bus,
    peers: peerData(rt.bus, peerCache),
    defaultTemplateId: config.DEFAULT_TEMPLATE_ID,
    now: () => new Date(),
    jobSignals: new EventEmitter().setMaxListeners(0),
    // receivables' part of finalization and of the PAID shortcut, reading this deps object when called
    settlement: invoiceSettlement(() => deps),
  };

  rt.app.use(attachmentRoutes(deps));
  rt.app.use(productRoutes(deps));
  rt.app.use(numberingRoutes(deps));
  rt.app.use(emailRoutes(deps));
  rt.app.use(testMailRoutes(deps));
  rt.app.use(reminderRoutes(deps));
  // the daily reminder run (claims per company and day: safe with several replicas); tests call reminderRun.tick()
  const dailyReminders = reminderRun(deps, { tickMs: config.REMINDER_TICK_MS, logger: rt.logger });
  rt.bus.onCommand('mail.send.v1', (msg, ctx) => handleSendMail(deps, msg, ctx.attempt));
  rt.bus.onEvent('invoice-mail', ['mail.sent.v1', 'mail.failed.v1'], (msg) =>
    msg.type === 'mail.sent.v1' ? onMailSent(deps, msg) : onMailFailed(deps, msg),
  );
  rt.app.use(invoiceRoutes(deps));
  rt.app.use(bankStatementRoutes(deps));
  rt.app.use(paymentRoutes(deps));
  rt.bus.onEvent('invoice-payments-exported', ['export.payments-exported.v1'], (msg) => onPaymentsExported(deps, msg));
  rt.bus.onEvent('invoice-jobs', ['document.render-started.v1', 'document.rendered.v1', 'document.render-failed.v1'], async (msg) => {
    let job: JobDoc | undefined;
    switch (msg.type) {
      case 'document.render-started.v1':
        job = await onRenderStarted(deps, msg);
        break;
      case 'document.rendered.v1':
        job = await onRendered(deps, msg, rt.logger);
        break;
      case 'document.render-failed.v1':
        job = await onRenderFailed(deps, msg, rt.logger);
        break;
    }
    // with the job as written, so that long-polling requests need not read it again
    deps.jobSignals.emit(msg.data.jobId, job);
  });

  return {
    runtime: rt,
    deps,
    reminderRun: dailyReminders,
    async start() {
      const started = await rt.start();
      dailyReminders.start();
      return started;
    },
    async stop() {
      await dailyReminders.stop();
      await rt.stop();
      peerRedis?.disconnect();
      sender.close();
    },
  };
}
