import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { INBOUND_ATTACHMENT_MAX_BYTES, INBOUND_ATTACHMENTS_MAX, INBOUND_ATTACHMENTS_MAX_TOTAL_BYTES } from '@inv/contracts';
import { connectObjectStore } from '@inv/objects';
import { createCounters, createServiceRuntime } from '@inv/runtime';
import type { InboundConfig } from './config';
import { handleProcessDocument } from './consumers/inbound.process-document';
import { inboundDocuments } from './db/inbound-documents';
import { suppliers } from './db/suppliers';
import { DOCUMENT_PATHS, inboundRoutes } from './http/inbound.routes';
import { supplierRoutes } from './http/suppliers.routes';
import { defaultKitDir, defaultSefCacheDir } from './support/conformance-kit';
import { dutyCycle } from './support/duty-cycle';
import { createInspector } from './support/inspector';
import type { InboundDeps } from './support/deps';

/** Received e-invoices: validation with the official rules, reading into our JSON, storage of the originals. */
export async function createInboundService(config: InboundConfig) {
  const kitDir = config.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
  // fails at once (not later in a worker) when the kit is missing
  if (!existsSync(join(kitDir, 'validate'))) throw new Error(`conformance kit not found at ${kitDir} (set INBOUND_CONFORMANCE_DIR)`);
  const rt = await createServiceRuntime({
    service: 'inbound-service',
    database: 'invoicing_inbound',
    port: config.PORT,
    env: config,
    nonJsonBodyPaths: DOCUMENT_PATHS,
  });
  const objects = await connectObjectStore(config);
  const inspector = createInspector(
    { kitDir, cacheDir: config.INBOUND_SEF_CACHE_DIR ?? defaultSefCacheDir(config.XDG_CACHE_HOME), xsdEngine: config.INBOUND_XSD_ENGINE },
    config.INBOUND_WORKERS,
    { nice: config.INBOUND_WORKER_NICE },
  );
  const deps: InboundDeps = {
    documents: inboundDocuments(rt.conn),
    suppliers: suppliers(rt.conn),
    counters: createCounters(rt.conn),
    commit: rt.commit,
    bus: rt.bus,
    objects,
    inspector,
    processing: dutyCycle(config.INBOUND_CPU_SHARE),
    logger: rt.logger,
    maxAttempts: config.BUS_RETRY_DELAYS_MS.length + 1,
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
  rt.bus.onCommand('inbound.process-document.v1', (msg, ctx) => handleProcessDocument(deps, msg, ctx.attempt));

  return {
    runtime: rt,
    deps,
    async start() {
      // the stylesheets are compiled (first start) and loaded before the service reports ready
      const started = performance.now();
      await inspector.warmUp();
      rt.logger.info({ ms: Math.round(performance.now() - started) }, 'conformance rules loaded');
      return rt.start();
    },
    async stop() {
      await rt.stop();
      await inspector.close();
    },
  };
}
