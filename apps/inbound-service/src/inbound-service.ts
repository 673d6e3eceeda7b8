import { openObjectStore } from '@inv/objects';
import { createCounters, createServiceRuntime } from '@inv/runtime';
import type { InboundConfig } from './config';
import { inboundDocuments } from './db/inbound-documents';
import { DOCUMENT_PATHS, inboundRoutes } from './http/inbound.routes';
import { defaultKitDir, defaultSefCacheDir, openConformanceKit, warmKit } from './support/conformance-kit';
import type { InboundDeps } from './support/deps';

/** Received e-invoices: validation with the official rules, reading into our JSON, storage of the originals. */
export async function createInboundService(config: InboundConfig) {
  const kit = openConformanceKit(config.INBOUND_CONFORMANCE_DIR ?? defaultKitDir(), config.INBOUND_SEF_CACHE_DIR ?? defaultSefCacheDir());
  const rt = await createServiceRuntime({
    service: 'inbound-service',
    database: 'invoicing_inbound',
    port: config.PORT,
    env: config,
    nonJsonBodyPaths: DOCUMENT_PATHS,
  });
  const storage = await openObjectStore(config, (endpoint) =>
    rt.logger.warn({ endpoint }, 'S3_ENDPOINT is unset: using an embedded development S3 server (s3rver)'),
  );
  const deps: InboundDeps = {
    documents: inboundDocuments(rt.conn),
    counters: createCounters(rt.conn),
    objects: storage.objects,
    kit,
    logger: rt.logger,
    now: () => new Date(),
  };
  await deps.documents.init();
  rt.app.use(inboundRoutes(deps));

  return {
    runtime: rt,
    deps,
    async start() {
      // the stylesheets are compiled (first start) and loaded before the service reports ready
      const started = performance.now();
      await warmKit(kit);
      rt.logger.info({ ms: Math.round(performance.now() - started) }, 'conformance rules loaded');
      return rt.start();
    },
    async stop() {
      await rt.stop();
      await storage.stop();
    },
  };
}
