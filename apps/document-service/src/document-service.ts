import type { EInvoice } from '@inv/einvoice';
import { formatForApiInvoiceFormat, requirementsFor } from '@inv/einvoice';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { createServiceRuntime } from '@inv/runtime';
import type { DocumentConfig } from './config';
import { handleRenderInvoice } from './consumers/render-invoice';
import { catalogRoutes } from './http/catalog.routes';
import { getTemplate, preloadFonts, renderStatementPdf, type AccountStatement } from './pdf';
import { renderInvoiceDocuments } from './usecases/render-invoice';

/** PDF/A-3 and e-invoice XML rendering, document storage and presigned links. */
export async function createDocumentService(config: DocumentConfig) {
  const rt = await createServiceRuntime({ service: 'document-service', database: 'invoicing_document', port: config.PORT, env: config });
  let embedded: EmbeddedS3 | undefined;
  if (!config.S3_ENDPOINT) {
    embedded = await startEmbeddedS3();
    rt.logger.warn({ endpoint: embedded.endpoint }, 'S3_ENDPOINT is unset: using the embedded development S3 server (s3rver)');
  }
  const objects = createObjectStore({
    endpoint: config.S3_ENDPOINT ?? (embedded as EmbeddedS3).endpoint,
    accessKey: embedded?.accessKey ?? config.S3_ACCESS_KEY,
    secretKey: embedded?.secretKey ?? config.S3_SECRET_KEY,
    bucket: config.S3_BUCKET,
    presignTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
  });
  await objects.ensureBucket();
  preloadFonts();

  rt.app.use(catalogRoutes());
  const maxAttempts = config.BUS_RETRY_DELAYS_MS.length + 1;
  rt.bus.onCommand('document.render-invoice.v1', (msg, ctx) => handleRenderInvoice({ bus: rt.bus, objects, logger: rt.logger, maxAttempts }, msg, ctx.attempt));
  rt.bus.serveRpc('document.render-preview.v1', async (msg) => {
    const docs = await renderInvoiceDocuments(msg.data.snapshot, msg.data.format, msg.data.templateId, true);
    return { pdfBase64: docs.pdf.body.toString('base64') };
  });
  rt.bus.serveRpc('document.check-requirements.v1', async (msg) => {
    const format = formatForApiInvoiceFormat(msg.data.format);
    if (!format) return { errors: [] };
    return { errors: requirementsFor(format, msg.data.snapshot as unknown as EInvoice) };
  });
  rt.bus.serveRpc('document.presign.v1', async (msg) => {
    if (!msg.data.key.startsWith(`${msg.companyId}/`)) throw new Error('object belongs to another company');
    return { url: await objects.presignGet(msg.data.key, msg.data.filename), expiresInSeconds: config.PRESIGNED_URL_TTL_SECONDS };
  });
  rt.bus.serveRpc('document.render-statement.v1', async (msg) => {
    const { template, ...statement } = msg.data;
    const pdf = await renderStatementPdf(statement as AccountStatement, { template });
    const filename = `statement-${(statement.customer.customerNumber ?? 'customer').replace(/[^\w.-]+/g, '_')}-${statement.from}-${statement.to}.pdf`;
    // Statements are derived data: one object per customer and period, overwritten when asked again.
    const key = `${msg.companyId}/statements/${filename}`;
    await objects.put(key, pdf, 'application/pdf');
    return { url: await objects.presignGet(key, filename), filename, expiresInSeconds: config.PRESIGNED_URL_TTL_SECONDS };
  });
  rt.bus.serveRpc('document.template-exists.v1', async (msg) => ({ exists: Boolean(getTemplate(msg.data.templateId)) }));

  return {
    runtime: rt,
    objects,
    start: () => rt.start(),
    async stop() {
      await rt.stop();
      await embedded?.stop();
    },
  };
}
