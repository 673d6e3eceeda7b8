import type { InvoiceSnapshot } from '@inv/contracts';
import { domesticMixedRates } from '@inv/einvoice';
import { DEFAULT_TEMPLATE_ID } from '../pdf';
import { renderInvoiceDocuments } from './render-invoice';

/**
 * Renders a sample invoice (ZUGFeRD: PDF/A-3 with its CII XML, and UBL for PEPPOL) and throws the result away,
 * so that the code of the hot path is loaded and compiled before the service reports ready: the first real
 * render job otherwise paid for it. Answers how long it took (ms).
 */
export async function warmUp(): Promise<number> {
  const started = performance.now();
  const sample = domesticMixedRates() as unknown as InvoiceSnapshot;
  await renderInvoiceDocuments(sample, 'ZUGFERD', DEFAULT_TEMPLATE_ID);
  await renderInvoiceDocuments(sample, 'PEPPOL', DEFAULT_TEMPLATE_ID);
  return performance.now() - started;
}
