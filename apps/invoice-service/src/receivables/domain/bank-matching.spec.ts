import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildMatchIndex,
  CONFIDENCE_RULES,
  creditorReferenceBody,
  matchLine,
  namesMatch,
  NUMBER_CONFIDENCE,
  type MatchableLine,
  type OpenInvoice,
} from './bank-matching';
import { guardStatementXml, parseCamt053 } from './camt053';

const inv = (
  id: number,
  number: string,
  openCents: number,
  customerName = `Customer ${id}`,
  extra: Partial<OpenInvoice> = {},
): OpenInvoice => ({
  id,
  number,
  customerId: id * 10,
  customerName,
  openCents,
  ...extra,
});
const line = (cents: number, extra: Partial<MatchableLine> = {}): MatchableLine => ({
  cents,
  currency: 'EUR',
  credit: true,
  reversal: false,
  status: 'BOOK',
  bookingDate: '2026-11-26',
  unstructured: [],
  references: [],
  ...extra,
});

describe('bank matching', () => {
  const invoices = [
    inv(1, 'RE-2026-0001', 11900, 'Muster GmbH'),
    inv(2, 'RE-2026-0002', 23800, 'Buyer Two KG'),
    inv(3, 'RE-2026-0003', 35700, 'Beispiel AG'),
    inv(4, 'RE-2026-0004', 10000, 'Skonto AG', { skonto: { cents: 200, untilDate: '2026-11-30' } }),
    inv(5, 'RE-2026-0005', 5000, 'Same Amount One'),
    inv(6, 'RE-2026-0006', 5000, 'Same Amount Two'),
    inv(7, '42', 4200, 'Short Number'),
  ];
  const index = buildMatchIndex(invoices);

  it('matches the fixture: number in the text, RF reference, amount and payer name, nothing, a debit', () => {
    const d = parseCamt053(guardStatementXml(readFileSync(join(__dirname, '../../testing/camt053-fixture.xml'))));
    const best = d.lines.map((l) => matchLine(l, index)[0]);
    expect(best[0]).toMatchObject({
      invoiceId: 1,
      confidence: 0.95,
      reasons: ['invoice_number', 'amount_equals_open'],
      amountCents: 11900,
    });
    expect(best[1]).toMatchObject({ invoiceId: 2, confidence: 0.95, reasons: ['creditor_reference', 'amount_equals_open'] });
    expect(best[2]).toMatchObject({
      invoiceId: 3,
      confidence: 0.8,
      reasons: ['amount_equals_open', 'payer_name_matches', 'amount_unique'],
    });
    expect(best[3]).toBeUndefined();
    expect(best[4]).toBeUndefined();
  });

  it('lowers the confidence for partial payments, Skonto and overpayments (booking the open amount)', () => {
    expect(matchLine(line(5000, { unstructured: ['RE-2026-0001'] }), index)[0]).toMatchObject({
      confidence: 0.75,
      amountCents: 5000,
      reasons: ['invoice_number', 'partial_payment'],
    });
    expect(matchLine(line(9800, { unstructured: ['re2026-0004'] }), index)[0]).toMatchObject({
      confidence: 0.9,
      reasons: ['invoice_number', 'amount_equals_open_minus_skonto'],
    });
    // after the Skonto period the same amount is a partial payment
    expect(matchLine(line(9800, { unstructured: ['RE 2026 0004'], valueDate: '2026-12-01' }), index)[0]!.reasons).toContain(
      'partial_payment',
    );
    expect(matchLine(line(20000, { unstructured: ['RE-2026-0001'] }), index)[0]).toMatchObject({ confidence: 0.6, amountCents: 11900 });
  });

  it('finds numbers as words only, also written with slashes', () => {
    expect(matchLine(line(4200, { unstructured: ['Miete 2042'] }), index)[0]).toMatchObject({
      invoiceId: 7,
      reasons: ['amount_equals_open', 'amount_unique'],
    });
    expect(matchLine(line(4200, { unstructured: ['Rechnung 42'] }), index)[0]).toMatchObject({
      invoiceId: 7,
      confidence: 0.66,
      reasons: ['invoice_number', 'amount_equals_open', 'short_invoice_number'],
    });
    expect(matchLine(line(11900, { unstructured: ['Rg.:RE/2026/0001.'] }), index)[0]).toMatchObject({ invoiceId: 1, confidence: 0.95 });
  });

  it('looks at the end-to-end id when the remittance names nothing', () => {
    expect(matchLine(line(11900, { unstructured: ['Danke'], endToEndId: 'RE-2026-0001' }), index)[0]).toMatchObject({
      invoiceId: 1,
      reasons: ['invoice_number', 'amount_equals_open'],
    });
  });

  it('names several invoices with lower confidence each', () => {
    const p = matchLine(line(35700, { unstructured: ['RE-2026-0001 RE-2026-0003'] }), index);
    expect(p.map((x) => [x.invoiceId, x.confidence])).toEqual([
      [3, 0.86],
      [1, 0.42],
    ]);
  });

  it('by amount: unique 0.5, several candidates lower, the payer (name or known IBAN) decides', () => {
    expect(matchLine(line(23800), index)[0]).toMatchObject({
      invoiceId: 2,
      confidence: 0.5,
      reasons: ['amount_equals_open', 'amount_unique'],
    });
    expect(matchLine(line(5000), index).map((x) => x.confidence)).toEqual([0.25, 0.25]);
    expect(matchLine(line(5000, { payerName: 'SAME AMOUNT TWO GMBH' }), index).map((x) => [x.invoiceId, x.confidence])).toEqual([
      [6, 0.8],
      [5, 0.1],
    ]);
    const known = buildMatchIndex(invoices, new Map([['DE89370400440532013000', 50]]));
    expect(matchLine(line(5000, { payerIban: 'DE89370400440532013000' }), known)[0]).toMatchObject({
      invoiceId: 5,
      confidence: 0.8,
      reasons: ['amount_equals_open', 'payer_iban_known', 'several_candidates'],
    });
  });

  it('proposes nothing for debits, reversals, unbooked lines and other currencies', () => {
    const named = { unstructured: ['RE-2026-0001'] };
    expect(matchLine(line(11900, { ...named, credit: false }), index)).toEqual([]);
    expect(matchLine(line(11900, { ...named, reversal: true }), index)).toEqual([]);
    expect(matchLine(line(11900, { ...named, status: 'PDNG' }), index)).toEqual([]);
    expect(matchLine(line(11900, { ...named, currency: 'CHF' }), index)).toEqual([]);
  });

  it('checks RF references (ISO 11649) and compares names without legal forms and accents', () => {
    expect(creditorReferenceBody('RF13 RE20 2600 02')).toBe('RE20260002');
    expect(creditorReferenceBody('RF14RE20260002')).toBeUndefined();
    expect(creditorReferenceBody('RF18539007547034')).toBe('539007547034');
    expect(namesMatch('Müller GmbH & Co. KG', 'MUELLER')).toBe(true);
    expect(namesMatch('Jane Doe', 'Doe, Jane')).toBe(true);
    expect(namesMatch('Jane Doe', 'John Doe')).toBe(false);
    expect(namesMatch('GmbH', 'GmbH')).toBe(false);
  });
});

describe('the confidences the walkthrough states', () => {
  const readme = readFileSync(join(__dirname, '../../../../../docs/walkthrough.md'), 'utf8').replace(/\s+/g, ' ');

  it('are the ones matching gives', () => {
    const n = NUMBER_CONFIDENCE;
    const r = CONFIDENCE_RULES;
    for (const phrase of [
      `${n.amount_equals_open} when the amount equals the open amount`,
      `${n.amount_equals_open_minus_skonto} when it equals the open amount minus Skonto`,
      `${n.partial_payment} for less (a partial payment)`,
      `${n.amount_exceeds_open} for more`,
      `times ${r.shortNumber} for an invoice number of 1 to 3 digits`,
      `times ${r.severalNumbersExact} for the one whose open amount is paid exactly, times ${r.severalNumbersOther} for the others`,
      `then times ${r.skontoFactor}`,
      `${r.knownPayer} with a known payer IBAN or the customer's name`,
      `the others then get ${r.otherThanKnownPayer} divided`,
      `${r.amountAlone} for the amount alone`,
    ])
      expect([phrase, readme.includes(phrase)]).toEqual([phrase, true]);
  });

  it("agree with the walkthrough's example: the invoice number and the open amount minus Skonto give 0.9", () => {
    const index = buildMatchIndex(
      [{ id: 1, number: 'RE-2026-00001', customerId: 1, openCents: 11900, skonto: { cents: 238, untilDate: '2026-12-31' } }],
      new Map(),
    );
    const line: MatchableLine = {
      cents: 11662,
      currency: 'EUR',
      credit: true,
      reversal: false,
      bookingDate: '2026-11-25',
      unstructured: ['RE-2026-00001'],
      references: [],
    };
    const [best] = matchLine(line, index);
    expect(best).toMatchObject({ confidence: 0.9, reasons: ['invoice_number', 'amount_equals_open_minus_skonto'] });
    expect(readme).toContain(
      '{"invoice_number":"RE-2026-00001","confidence":0.9,"reasons":["invoice_number","amount_equals_open_minus_skonto"]}',
    );
  });
});
