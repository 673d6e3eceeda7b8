import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type CompanyId, INBOUND_ATTACHMENT_MAX_BYTES, INBOUND_ATTACHMENTS_MAX, INBOUND_ATTACHMENTS_MAX_TOTAL_BYTES } from '@inv/contracts';
import { connectObjectStore } from '@inv/objects';
import { createCounters, createServiceRuntime } from '@inv/runtime';
import type { InboundConfig } from './config';
import { handleProcessDocument } from './consumers/inbound.process-document';
import { processDocument } from './usecases/process-document';
import { documentScheduler } from './workers/document-scheduler';
import { inboundDocuments } from './db/inbound-documents';
import { suppliers } from './db/suppliers';
import { DOCUMENT_PATHS, inboundRoutes } from './http/inbound.routes';
import { supplierRoutes } from './http/suppliers.routes';
import { defaultKitDir, defaultSefCacheDir } from './inspection/conformance-kit';
import { dutyCycle } from './inspection/duty-cycle';
import { createInspector } from './inspection/inspector';
import type { InboundDeps } from './support/deps';

/**
 * The documents waiting to be read are queued in memory per company, at most QUEUED_PER_COMPANY each and QUEUED_TOTAL
 * in all (the rest waits in MongoDB); every SWEEP_MS the waiting documents nobody holds are queued again, the oldest
 * SWEEP_PER_COMPANY of each of at most SWEEP_COMPANIES companies (after a restart, or what a stopped replica held).
 */
const QUEUED_PER_COMPANY = 1_000;
const QUEUED_TOTAL = 20_000;
const SWEEP_MS = 15_000;
const SWEEP_PER_COMPANY = 100;
const SWEEP_COMPANIES = 200;

/** Received e-invoices: validation with the official rules, reading into our JSON, storage of the originals. */
export async function createInboundService(config: InboundConfig) {
  const kitDir = config.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
  // fails at once (not later in a worker) when the kit is missing
  if (!existsSync(join(kitDir, 'validate'))) throw new Error(`conformance kit not found at ${kitDir} (set INBOUND_CONFORMANCE_DIR)`);
  const objects = await connectObjectStore(config);
  const rt = await createServiceRuntime({
    service: 'inbound-service',
    database: 'invoicing_inbound',
    port: config.PORT,
    env: config,
    nonJsonBodyPaths: DOCUMENT_PATHS,
    testFiles: objects,
  });
  const inspector = createInspector(
    { kitDir, cacheDir: config.INBOUND_SEF_CACHE_DIR ?? defaultSefCacheDir(config.XDG_CACHE_HOME), xsdEngine: config.INBOUND_XSD_ENGINE },
    config.INBOUND_WORKERS,
    { nice: config.INBOUND_WORKER_NICE, timeoutMs: config.INBOUND_VALIDATION_TIMEOUT_MS },
  );
  const documents = inboundDocuments(rt.conn);
  const scheduler = documentScheduler({
    gate: dutyCycle(config.INBOUND_CPU_SHARE),
    work: (companyId, id) => processDocument(deps, companyId as CompanyId, id),
    waiting: () => documents.waitingAcrossCompanies(new Date(), SWEEP_PER_COMPANY, SWEEP_COMPANIES),
    logger: rt.logger,
    sweepMs: SWEEP_MS,
    limits: { perCompany: QUEUED_PER_COMPANY, total: QUEUED_TOTAL },
  });
  const deps: InboundDeps = {
    documents,
    suppliers: suppliers(rt.conn),
    counters: createCounters(rt.conn),
    commit: rt.commit,
    bus: rt.bus,
    objects,
    inspector,
    scheduler,
    logger: rt.logger,
    maxAttempts: config.BUS_RETRY_DELAYS_MS.length + 1,
    retryDelaysMs: config.BUS_RETRY_DELAYS_MS,
    // longer than a reading may take (the inspection's timeout, then storing and committing)
    leaseMs: 2 * config.INBOUND_VALIDATION_TIMEOUT_MS + 60_000,
    presignTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS,
    attachmentLimits: {
      count: INBOUND_ATTACHMENTS_MAX,
      bytes: INBOUND_ATTACHMENT_MAX_BYTES,
      totalBytes: INBOUND_ATTACHMENTS_MAX_TOTAL_BYTES,
    },
    jobSignals: new EventEmitter().setMaxListeners(0),
    now: () => new Date(),
  };
  await Promise.all([deps.documents.init(), deps.suppliers.init()]);
  rt.app.use(inboundRoutes(deps));
  rt.app.use(supplierRoutes(deps));
  rt.bus.onCommand('inbound.process-document.v1', (msg) => handleProcessDocument(deps, msg));

  return {
    runtime: rt,
    deps,
    scheduler,
    async start() {
      // the stylesheets are compiled (first start) and loaded before the service reports ready
      const started = performance.now();
      await inspector.warmUp();
      rt.logger.info({ ms: Math.round(performance.now() - started) }, 'conformance rules loaded');
      const running = await rt.start();
      await scheduler.start(); // what waited when the last process stopped
      return running;
    },
    async stop() {
      await scheduler.stop();
      await rt.stop();
      await inspector.close();
    },
  };
}
