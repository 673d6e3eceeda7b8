import { embeddableAttachments } from './attachments';
import { fixtureScenarios } from './fixtures';
import { toEInvoiceXml } from './formats';

const atts = [
  { id: 'ATT-1', filename: 'terms.pdf', mimeCode: 'application/pdf', description: 'Terms', content: Buffer.from('%PDF-1.7 terms') },
  { id: 'ATT-2', filename: 'anim.gif', mimeCode: 'image/gif', content: Buffer.from('GIF89a') },
];

describe('attachments in e-invoices', () => {
  it('embeds allowed types in UBL as BG-24 and says why others are left out', () => {
    const r = embeddableAttachments('peppol-ubl', atts);
    expect(r.embedded.map((a) => a.filename)).toEqual(['terms.pdf']);
    expect(r.leftOut).toEqual([{ filename: 'anim.gif', reason: expect.stringContaining('image/gif may not be embedded') }]);
    const inv = { ...fixtureScenarios[0]!.build(), attachments: atts };
    const xml = toEInvoiceXml('peppol-ubl', inv).replace(/>\s+</g, '><');
    expect(xml).toContain(
      '<cac:AdditionalDocumentReference><cbc:ID>ATT-1</cbc:ID><cbc:DocumentDescription>Terms</cbc:DocumentDescription>',
    );
    expect(xml).toContain(
      `<cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="terms.pdf">${Buffer.from('%PDF-1.7 terms').toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`,
    );
    expect(xml).not.toContain('anim.gif');
    expect(xml.indexOf('AdditionalDocumentReference')).toBeLessThan(xml.indexOf('AccountingSupplierParty'));
  });

  it('leaves CII, FatturaPA and Facturae without them, naming where they go', () => {
    expect(embeddableAttachments('cii-en16931', atts).leftOut[0]!.reason).toMatch(/PDF\/A-3/);
    expect(embeddableAttachments('fatturapa', atts).embedded).toEqual([]);
    expect(toEInvoiceXml('cii-en16931', { ...fixtureScenarios[0]!.build(), attachments: atts })).not.toContain('terms.pdf');
  });
});
