import { create } from 'xmlbuilder2';

export interface BelegDocument {
  guid: string;
  filename: string;
  invoiceNumber: string;
}

/**
 * DATEV's Belegbilder index (document_v050): every PDF of the ZIP with its guid (the booking rows'
 * Beleglink `BEDI "<guid>"`), its file name and the invoice number as keyword.
 */
export function documentXml(
  docs: readonly BelegDocument[],
  meta: { createdAt: Date; consultantNumber: number; clientNumber: number; description: string },
): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('http://xml.datev.de/bedi/tps/document/v05.0', 'archive', {
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:schemaLocation': 'http://xml.datev.de/bedi/tps/document/v05.0 Document_v050.xsd',
    version: '5.0',
    generatingSystem: 'invoicing-api',
  });
  const header = root.ele('header');
  header.ele('date').txt(meta.createdAt.toISOString().slice(0, 19));
  header.ele('description').txt(meta.description);
  header.ele('consultantNumber').txt(String(meta.consultantNumber));
  header.ele('clientNumber').txt(String(meta.clientNumber));
  const content = root.ele('content');
  for (const d of docs) {
    const doc = content.ele('document', { guid: d.guid, processID: '1' });
    doc.ele('keywords').txt(d.invoiceNumber);
    doc.ele('extension', { 'xsi:type': 'File', name: d.filename });
  }
  return root.end({ prettyPrint: true });
}
