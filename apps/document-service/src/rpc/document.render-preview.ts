import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import { renderInvoiceDocuments } from '../usecases/render-invoice';

type Request = z.output<(typeof messages.rpc)['document.render-preview.v1']['request']>;

/** A draft's PDF, marked as a draft, stored nowhere. */
export async function onRenderPreview(msg: Envelope<Request>) {
  const docs = await renderInvoiceDocuments(msg.data.snapshot, msg.data.format, msg.data.templateId, true);
  return { pdfBase64: docs.pdf.body.toString('base64') };
}
