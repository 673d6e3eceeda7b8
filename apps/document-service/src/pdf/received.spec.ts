import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InboundContent } from '@inv/contracts';
import { renderReceivedPdf } from './received';

const hasPdftotext = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const content: InboundContent = {
  number: 'RE-2026-0815',
  type_code: '380',
  issue_date: '2026-11-20',
  due_date: '2026-12-04',
  service_period: { start: '2026-11-01', end: '2026-11-30' },
  currency: 'EUR',
  buyer_reference: '04011000-12345-03',
  preceding_invoices: [],
  notes: ['#ADU#Es gelten unsere AGB.'],
  seller: {
    name: 'Lieferant Beispiel GmbH',
    vat_id: 'DE123456789',
    identifiers: [],
    address: { street: 'Hauptstraße 1', city: 'Köln', postal_code: '50667', country: 'DE' },
  },
  buyer: { name: 'Käufer AG', identifiers: [], address: { city: 'Berlin', postal_code: '10115', country: 'DE' } },
  lines: [
    {
      id: '1',
      name: 'Beratung',
      quantity: '2',
      unit: 'HUR',
      net_price: '100.00',
      net_amount: '200.00',
      vat_category: 'S',
      vat_rate: '19',
      allowances_charges: [],
    },
    // what a supplier may send that our own renderers would refuse: printed as it is
    { id: 'L-0002-long', name: 'Fracht', quantity: 'n/a', net_amount: '10,00', vat_category: 'S', vat_rate: '19', allowances_charges: [] },
  ],
  allowances_charges: [{ charge: false, amount: '10.00', reason: 'Rabatt', vat_category: 'S', vat_rate: '19' }],
  vat_breakdown: [{ category: 'S', rate: '19', taxable_amount: '200.00', tax_amount: '38.00' }],
  totals: {
    line_total: '210.00',
    allowance_total: '10.00',
    tax_exclusive: '200.00',
    tax_total: '38.00',
    tax_inclusive: '238.00',
    payable: '238.00',
  },
  payment_means: [{ code: '58', iban: 'DE02120300000000202051', account_name: 'Lieferant Beispiel GmbH' }],
  payment_terms: 'Zahlbar bis 04.12.2026',
  attachments: [],
};

(hasPdftotext ? describe : describe.skip)('the view of a received e-invoice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'received-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const text = async (language: 'de' | 'en') => {
    const pdf = await renderReceivedPdf({
      language,
      inboundId: 3,
      format: 'xrechnung-ubl',
      profile: 'XRechnung 3.0',
      valid: false,
      receivedAt: '2026-11-27T10:00:00.000Z',
      content,
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const file = join(dir, `${language}.pdf`);
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\u00a0/g, ' ');
  };

  it('prints title, parties, numbers, lines, VAT, totals and payment in German', async () => {
    const t = await text('de');
    for (const s of [
      'Eingangsrechnung RE-2026-0815',
      'Lieferant Beispiel GmbH',
      'Käufer AG',
      '20.11.2026',
      'Beratung',
      'Nachlass',
      '238,00 EUR',
      'DE02 1203 0000 0000 2020 51',
      'NICHT gültig',
      'Es gelten unsere AGB.',
      'Leistungszeitraum',
      '01.11.2026 – 30.11.2026',
      'n/a',
      '10,00',
    ])
      expect(t).toContain(s);
    expect(t).not.toContain('#ADU#');
  });

  it('a document in another currency shows its VAT total in the VAT accounting currency too (BT-111)', async () => {
    const pdf = await renderReceivedPdf({
      language: 'de',
      inboundId: 4,
      format: 'ubl-en16931',
      valid: true,
      receivedAt: '2026-11-27T10:00:00.000Z',
      content: { ...content, currency: 'DKK', tax_currency: 'EUR', totals: { ...content.totals, tax_total_tax_currency: '5.10' } },
    });
    const file = join(dir, 'dkk.pdf');
    writeFileSync(file, pdf);
    const t = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\u00a0/g, ' ');
    for (const s of ['38,00 DKK', '5,10 EUR', '238,00 DKK']) expect(t).toContain(s);
  });

  it('and in English', async () => {
    const t = await text('en');
    for (const s of [
      'Received invoice RE-2026-0815',
      'Seller',
      'Buyer',
      '20 Nov 2026',
      '238.00 EUR',
      'SEPA credit transfer',
      'Amount due',
      'Service period',
      '30 Nov 2026',
    ])
      expect(t).toContain(s);
  });
});
