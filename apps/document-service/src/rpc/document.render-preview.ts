import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { DocumentDeps } from '../usecases/deps';

type Request = z.output<(typeof messages.rpc)['document.render-preview.v1']['request']>;

/** A draft's PDF, marked as a draft, stored nowhere; with the company's logo when it can be read. */
export async function onRenderPreview(deps: Pick<DocumentDeps, 'objects' | 'logger' | 'renderer'>, msg: Envelope<Request>) {
  let logo: Buffer | undefined;
  if (msg.data.logo?.key.startsWith(`${msg.companyId}/`)) {
    logo = await deps.objects.get(msg.data.logo.key).catch((err: unknown) => {
      deps.logger.warn({ err }, 'the logo could not be read; previewing without it');
      return undefined;
    });
  }
  const docs = await deps.renderer.invoice(msg.data.snapshot, msg.data.format, msg.data.templateId, { draft: true, logo });
  return { pdfBase64: docs.pdf.body.toString('base64') };
}
