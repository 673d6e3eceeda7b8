import type { CompanyId } from '@inv/contracts';
import type { InvoicesDeps } from '../deps';
import { loadInvoice } from './load-invoice';
import { validateInvoice } from './validate-invoice';

/** The draft as a PDF marked DRAFT / ENTWURF: rendered by document-service, nothing stored, no quota used. */
export async function renderPreview(deps: InvoicesDeps, companyId: CompanyId, id: number): Promise<Buffer> {
  const inv = await loadInvoice(deps, companyId, id);
  const { snapshot, buyer, seller } = await validateInvoice(deps, inv, new Date().toISOString().slice(0, 10));
  if (snapshot.lines.length === 0) {
    snapshot.lines = [
      { id: '0', name: '—', quantity: '0', unitCode: 'C62', unitPrice: '0', vat: { category: 'S', rate: '19', treatment: 'standard' } },
    ];
  }
  const { pdfBase64 } = await deps.bus.callRpc(
    'document.render-preview.v1',
    companyId,
    {
      format: inv.format,
      templateId: inv.templateId ?? buyer.defaultTemplateId ?? seller.defaultTemplateId ?? deps.defaultTemplateId,
      snapshot,
      logo: seller.logo,
    },
    { timeoutMs: 20_000 },
  );
  return Buffer.from(pdfBase64, 'base64');
}
