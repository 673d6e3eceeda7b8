import type { RpcRequestOf } from '@inv/runtime';
import type { DocumentDeps } from '../support/deps';
import { mayUseLogo, rendersInTestMode } from '../domain/test-mode';

/** A draft's PDF, marked as a draft, stored nowhere; with the company's logo when it can be read. */
export async function onRenderPreview(
  deps: Pick<DocumentDeps, 'objects' | 'logger' | 'renderer'>,
  msg: RpcRequestOf<'document.render-preview.v1'>,
) {
  let logo: Buffer | undefined;
  if (msg.data.logo && mayUseLogo(msg.companyId, msg.data.logo.key)) {
    logo = await deps.objects.get(msg.data.logo.key).catch((err: unknown) => {
      deps.logger.warn({ err }, 'the logo could not be read; previewing without it');
      return undefined;
    });
  }
  const docs = await deps.renderer.invoice(msg.data.snapshot, msg.data.format, msg.data.templateId, {
    draft: true,
    logo,
    testMode: rendersInTestMode(msg.companyId),
  });
  return { pdfBase64: docs.pdf.body.toString('base64') };
}
