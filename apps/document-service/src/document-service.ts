import { connectObjectStore } from '@inv/objects';
import { createServiceRuntime } from '@inv/runtime';
import type { DocumentConfig } from './config';
import { handleRenderInvoice, timedRender } from './consumers/document.render-invoice';
import { catalogRoutes } from './http/catalog.routes';
import { onPresign } from './rpc/document.presign';
import { onRenderPreview } from './rpc/document.render-preview';
import { onRenderReceived } from './rpc/document.render-received';
import { onRenderReminder } from './rpc/document.render-reminder';
import { onRenderStatement } from './rpc/document.render-statement';
import { onTemplateExists } from './rpc/document.template-exists';
import type { DocumentDeps } from './support/deps';
import { createRenderer } from './render/render-pool';

/** PDF/A-3 and e-invoice XML rendering, document storage and presigned links. */
export async function createDocumentService(config: DocumentConfig) {
  const objects = await connectObjectStore(config);
  const rt = await createServiceRuntime({
    service: 'document-service',
    database: undefined,
    port: config.PORT,
    env: config,
    testFiles: objects,
  });
  const renderer = createRenderer(config.RENDER_WORKERS);
  const warmUpMs = await renderer.warmUp();
  rt.logger.info({ ms: Math.round(warmUpMs), workers: renderer.workers }, 'rendered a sample invoice (warm-up)');

  rt.app.use(catalogRoutes());
  const deps: DocumentDeps = {
    bus: rt.bus,
    objects,
    logger: rt.logger,
    renderer,
    maxAttempts: config.BUS_RETRY_DELAYS_MS.length + 1,
    startedAfterMs: config.RENDER_STARTED_AFTER_MS,
    presignTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS,
  };
  rt.bus.onCommand('document.render-invoice.v1', (msg, ctx) => timedRender(() => handleRenderInvoice(deps, msg, ctx.attempt)));
  rt.bus.serveRpc('document.render-preview.v1', (msg) => onRenderPreview(deps, msg));
  rt.bus.serveRpc('document.presign.v1', (msg) => onPresign(deps, msg));
  rt.bus.serveRpc('document.render-statement.v1', (msg) => onRenderStatement(deps, msg));
  rt.bus.serveRpc('document.render-reminder.v1', (msg) => onRenderReminder(deps, msg));
  rt.bus.serveRpc('document.render-received.v1', (msg) => onRenderReceived(deps, msg));
  rt.bus.serveRpc('document.template-exists.v1', onTemplateExists);

  return {
    runtime: rt,
    objects,
    start: () => rt.start(),
    async stop() {
      await rt.stop();
      await renderer.close();
    },
  };
}
