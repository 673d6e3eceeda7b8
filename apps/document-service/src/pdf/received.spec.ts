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
  let n = 0;
  const text = async (language: 'de' | 'en', doc: InboundContent = content, documentType?: 'INVOICE' | 'CREDIT_NOTE') => {
    const pdf = await renderReceivedPdf({
      language,
      documentType,
      inboundId: 3,
      format: 'xrechnung-ubl',
      profile: 'XRechnung 3.0',
      valid: false,
      receivedAt: '2026-11-27T10:00:00.000Z',
      content: doc,
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const file = join(dir, `${language}-${++n}.pdf`);
    writeFileSync(file, pdf);
    // a table cell may wrap: words are compared with single spaces
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })
      .replace(/\u00a0/g, ' ')
      .replace(/[ \n]+/g, ' ');
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

  it('names the VAT rows like our own invoices and the buyer reference as the buyer\'s, not "your" reference', async () => {
    const twoRates: InboundContent = {
      ...content,
      vat_breakdown: [
        { category: 'S', rate: '19', taxable_amount: '100.00', tax_amount: '19.00' },
        { category: 'S', rate: '7', taxable_amount: '100.00', tax_amount: '7.00' },
        { category: 'AE', rate: '0', taxable_amount: '10.00', tax_amount: '0.00', exemption_reason: 'Reverse charge' },
      ],
    };
    const de = await text('de', twoRates);
    for (const s of [
      'Regelsatz',
      'Ermäßigter Satz',
      'Steuerschuldnerschaft des Leistungsempfängers',
      'Käuferreferenz',
      '04011000-12345-03',
    ])
      expect(de).toContain(s);
    expect(de).not.toContain('Ihre Referenz');
    expect(de.match(/Umsatzsteuer/g)).toHaveLength(1); // the VAT total only: it was the label of every S row too
    const en = await text('en', twoRates);
    for (const s of ['Standard rate', 'Reduced rate', 'Reverse charge', 'Buyer reference']) expect(en).toContain(s);
    expect(en).not.toContain('Your reference');
    // an Austrian supplier's 10 % is its reduced rate too
    const austrian = await text('de', {
      ...twoRates,
      seller: { ...content.seller, vat_id: 'ATU12345678', address: { city: 'Wien', country: 'AT' } },
      vat_breakdown: [{ category: 'S', rate: '10', taxable_amount: '100.00', tax_amount: '10.00' }],
    });
    expect(austrian).toContain('Ermäßigter Satz');
  });

  it('calls a supplier\'s 381 a Rechnungskorrektur and keeps "Gutschrift" for self-billing (389)', async () => {
    const credit = await text('de', { ...content, type_code: '381', number: 'RK-2026-0001' }, 'CREDIT_NOTE');
    expect(credit).toContain('Eingegangene Rechnungskorrektur RK-2026-0001');
    expect(credit).toContain('Rechnungskorrektur (381)');
    expect(credit).not.toContain('Gutschrift');
    expect(await text('en', { ...content, type_code: '381' }, 'CREDIT_NOTE')).toContain('Received credit note');
    const selfBilled = await text('de', { ...content, type_code: '389' });
    expect(selfBilled).toContain('Gutschrift (Gutschriftsverfahren) RE-2026-0815');
    expect(selfBilled).toContain('Gutschrift im Gutschriftsverfahren (389)');
    expect(await text('en', { ...content, type_code: '389' })).toContain('Self-billed invoice RE-2026-0815');
  });
});
