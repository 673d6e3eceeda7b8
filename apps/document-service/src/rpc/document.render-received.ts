import type { RpcRequestOf } from '@inv/runtime';
import type { DocumentDeps } from '../support/deps';

/**
 * Renders the view of a received e-invoice (inbound-service's reading of an XRechnung or other XML) and stores it
 * where the caller asks, below the company's own prefix (a repeated request renders and overwrites the same object).
 */
export async function onRenderReceived(deps: DocumentDeps, msg: RpcRequestOf<'document.render-received.v1'>) {
  const { key, ...received } = msg.data;
  if (!key.startsWith(`${msg.companyId}/inbound/`) || key.includes('..'))
    throw new Error("the key is not below the company's inbound prefix");
  const pdf = await deps.renderer.received(received);
  const filename = `${received.language === 'de' ? 'eingangsrechnung' : 'received-invoice'}-${received.inboundId}.pdf`;
  await deps.objects.put(key, pdf, 'application/pdf');
  return { key, filename, contentType: 'application/pdf', size: pdf.length };
}
