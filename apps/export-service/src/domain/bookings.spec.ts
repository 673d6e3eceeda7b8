import fc from 'fast-check';
import { computeTotals, sumDecimals, toDecimal } from '@inv/money';
import { buildBatch } from './batch';
import { bookingLinesOf, datevVatId, documentGuid, ExportDataError } from './bookings';
import { BOOKING_COLUMNS, columnIndex, DEBTOR_COLUMNS } from './columns';
import { debtorLines } from './debtors';
import type { ExportInvoice } from './export-invoice';
import { effectiveMappings } from './mapping-rules';

const skr03 = effectiveMappings('SKR03', 4, null);
const c = (h: string) => columnIndex(BOOKING_COLUMNS, h);
const opts = { companyId: 'cmp_1', withDocuments: false };

const invoice = (over: Partial<ExportInvoice> = {}): ExportInvoice => ({
  invoiceId: 1,
  number: 'RE-2026-0001',
  typeCode: '380',
  invoiceDate: '2026-03-05',
  dueDate: '2026-03-19',
  serviceDate: '2026-02-28',
  customerId: 7,
  customerNumber: 10023,
  buyer: {
    name: 'Müller & Söhne GmbH',
    vatId: 'DE 123 456 788',
    address: { line1: 'Hauptstraße 1', city: 'Köln', postalCode: '50667', countryCode: 'DE' },
    contact: { email: 'buch@mueller.example' },
  },
  vatGroups: [
    { category: 'S', rate: '19', treatment: 'standard', net: '100.00', vat: '19.00' },
    { category: 'S', rate: '7', treatment: 'reduced', net: '50.00', vat: '3.50' },
  ],
  totalGross: '172.50',
  ...over,
});

describe('booking rows', () => {
  it('writes one row per VAT rate: gross, S, debtor from the customer number against the mapped revenue account', () => {
    const rows = bookingLinesOf(invoice(), skr03, opts);
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.fields).toHaveLength(125);
    const [a, b] = rows.map((r) => r.fields);
    expect([
      a![c('Umsatz (ohne Soll/Haben-Kz)')],
      a![c('Soll/Haben-Kennzeichen')],
      a![c('Konto')],
      a![c('Gegenkonto (ohne BU-Schlüssel)')],
    ]).toEqual(['119,00', '"S"', '10023', '8400']);
    expect([b![c('Umsatz (ohne Soll/Haben-Kz)')], b![c('Gegenkonto (ohne BU-Schlüssel)')]]).toEqual(['53,50', '8300']);
    expect(a![c('BU-Schlüssel')]).toBe(''); // automatic accounts: no BU key
    expect(a![c('Belegdatum')]).toBe('0503');
    expect(a![c('Belegfeld 1')]).toBe('"RE-2026-0001"');
    expect(a![c('Buchungstext')]).toBe('"Rechnung RE-2026-0001 Müller & Söhne GmbH"');
    expect(a![c('Leistungsdatum')]).toBe('28022026');
    expect(a![c('Fälligkeit')]).toBe('19032026');
    expect(a![c('WKZ Umsatz')]).toBe('"EUR"');
    expect(a![c('EU-Land u. UStID (Bestimmung)')]).toBe(''); // domestic
  });

  it('books a credit note H, with the invoice it corrects in Belegfeld 2', () => {
    const rows = bookingLinesOf(invoice({ typeCode: '381', number: 'GS-1', precedingInvoiceNumber: 'RE-2026-0001' }), skr03, opts);
    expect(rows.map((r) => r.fields[c('Soll/Haben-Kennzeichen')])).toEqual(['"H"', '"H"']);
    expect(rows[0]!.fields[c('Belegfeld 2')]).toBe('"RE-2026-0001"');
    expect(rows[0]!.gross).toBe('-119.00');
    expect(rows[0]!.fields[c('Fälligkeit')]).toBe('');
  });

  it('calls a credit note what its PDF calls it in the Buchungstext: Rechnungskorrektur, never Gutschrift', () => {
    const [row] = bookingLinesOf(
      invoice({ typeCode: '381', number: 'RK-2026-00001', precedingInvoiceNumber: 'RE-2026-0001' }),
      skr03,
      opts,
    );
    expect(row!.fields[c('Buchungstext')]).toBe('"Rechnungskorrektur RK-2026-00001 Müller & Söhne GmbH"');
    // numbers given under the former prefix are booked as they are
    const [old] = bookingLinesOf(
      invoice({ typeCode: '381', number: 'GS-2026-00007', precedingInvoiceNumber: 'RE-2026-0001' }),
      skr03,
      opts,
    );
    expect(old!.fields[c('Buchungstext')]).toBe('"Rechnungskorrektur GS-2026-00007 Müller & Söhne GmbH"');
    // at most 60 characters: a long customer name is cut, the word and the number stay
    const long = bookingLinesOf(
      invoice({
        typeCode: '381',
        number: 'RK-2026-00001',
        buyer: { ...invoice().buyer!, name: 'Sehr lange Firmenbezeichnung Handels- und Vertriebsgesellschaft mbH' },
      }),
      skr03,
      opts,
    )[0]!.fields[c('Buchungstext')]!;
    expect(long.slice(1, -1)).toHaveLength(60);
    expect(long.startsWith('"Rechnungskorrektur RK-2026-00001 Sehr lange')).toBe(true);
  });

  it('names the credited invoice in full: Beleginfo always, Belegfeld 2 only when the whole number fits in 12 characters', () => {
    const refs = (precedingInvoiceNumber: string) =>
      bookingLinesOf(invoice({ typeCode: '381', number: 'GS-2026-00007', precedingInvoiceNumber }), skr03, opts).map((r) => [
        r.fields[c('Belegfeld 1')],
        r.fields[c('Belegfeld 2')],
        r.fields[c('Beleginfo - Art 1')],
        r.fields[c('Beleginfo - Inhalt 1')],
      ]);
    // 13 characters: cut to 12 both would read RE-2026-0004; they stay apart, and Belegfeld 2 is left empty
    const [a, b] = [refs('RE-2026-00042'), refs('RE-2026-00045')];
    expect(a).toEqual([
      ['"GS-2026-00007"', '', '"Rechnung"', '"RE-2026-00042"'],
      ['"GS-2026-00007"', '', '"Rechnung"', '"RE-2026-00042"'],
    ]);
    expect(b[0]).toEqual(['"GS-2026-00007"', '', '"Rechnung"', '"RE-2026-00045"']);
    expect(a[0]![3]).not.toBe(b[0]![3]);
    // 12 characters fit Belegfeld 2 whole
    expect(refs('RE-2026-0042')[0]).toEqual(['"GS-2026-00007"', '"RE-2026-0042"', '"Rechnung"', '"RE-2026-0042"']);
    // characters Belegfeld 2 cannot hold would merge numbers (RE 1/2 and RE1/2): only in Beleginfo, as issued
    expect(refs('RE 1/2')[0]).toEqual(['"GS-2026-00007"', '', '"Rechnung"', '"RE 1/2"']);
    // an invoice's own rows carry no reference
    const own = bookingLinesOf(invoice(), skr03, opts)[0]!.fields;
    expect([own[c('Belegfeld 2')], own[c('Beleginfo - Art 1')], own[c('Beleginfo - Inhalt 1')]]).toEqual(['', '', '']);
  });

  it('never writes two different credited invoices as the same reference (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{2}-\d{4}-\d{1,10}$/), fc.stringMatching(/^[A-Z]{2}-\d{4}-\d{1,10}$/), (x, y) => {
        fc.pre(x !== y);
        const ref = (n: string) => {
          const f = bookingLinesOf(invoice({ typeCode: '381', number: 'GS-1', precedingInvoiceNumber: n }), skr03, opts)[0]!.fields;
          return [f[c('Belegfeld 2')], f[c('Beleginfo - Inhalt 1')]];
        };
        const [rx, ry] = [ref(x), ref(y)];
        expect(rx[1]).not.toBe(ry[1]);
        if (rx[0] && ry[0]) expect(rx[0]).not.toBe(ry[0]);
      }),
    );
  });

  it('puts the VAT ID on intra-community and reverse-charge rows (EL for Greece), never on domestic ones', () => {
    const eu = invoice({
      buyer: { name: 'Ελληνική ΑΕ', vatId: 'GR 123456789', address: { line1: 'Odos 1', city: 'Athens', countryCode: 'GR' } },
      vatGroups: [
        { category: 'K', rate: '0', treatment: 'intra_community', net: '500', vat: '0' },
        { category: 'AE', rate: '0', treatment: 'reverse_charge', net: '200', vat: '0' },
      ],
    });
    const rows = bookingLinesOf(eu, skr03, opts).map((r) => r.fields);
    expect(rows.map((f) => f[c('Gegenkonto (ohne BU-Schlüssel)')])).toEqual(['8125', '8336']);
    expect(rows.map((f) => f[c('EU-Land u. UStID (Bestimmung)')])).toEqual(['"EL123456789"', '"EL123456789"']);
    expect(datevVatId('de 123.456.788')).toBe('DE123456788');
  });

  it('maps every VAT category to its account (SKR04, account length 6) and scales the debtor', () => {
    const m = effectiveMappings('SKR04', 6, null);
    const cats = [
      ['S', '19', 440000],
      ['S', '7', 430000],
      ['Z', '0', 410000],
      ['E', '0', 410000],
      ['G', '0', 412000],
      ['O', '0', 433800],
    ] as const;
    const inv = invoice({ vatGroups: cats.map(([category, rate]) => ({ category, rate, treatment: 'x', net: '10', vat: '0' })) });
    const rows = bookingLinesOf(inv, m, opts).map((r) => r.fields);
    expect(rows.map((f) => Number(f[c('Gegenkonto (ohne BU-Schlüssel)')]))).toEqual(cats.map(([, , a]) => a));
    expect(rows[0]![c('Konto')]).toBe('1000023');
  });

  it('fails with a message naming what to map when a rate has no account', () => {
    const inv = invoice({ vatGroups: [{ category: 'S', rate: '16', treatment: 'standard', net: '10', vat: '1.60' }] });
    expect(() => bookingLinesOf(inv, skr03, opts)).toThrow(ExportDataError);
    expect(() => bookingLinesOf(inv, skr03, opts)).toThrow(/VAT category S at 16 %.*PUT \/acctexp\/mappings/);
    expect(() => bookingLinesOf(invoice({ vatGroups: undefined }), skr03, opts)).toThrow(/before the export recorded VAT groups/);
  });

  it('links the document when documents are included, with a stable guid', () => {
    const rows = bookingLinesOf(invoice({ pdfKey: 'cmp_1/invoices/1/RE.pdf' }), skr03, { companyId: 'cmp_1', withDocuments: true });
    const guid = documentGuid('cmp_1', 1);
    expect(guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(rows[0]!.fields[c('Beleglink')]).toBe(`"BEDI ""${guid}"""`);
  });

  it('leaves zero rows out and flips a negative group', () => {
    const inv = invoice({
      vatGroups: [
        { category: 'S', rate: '19', treatment: 'standard', net: '0', vat: '0' },
        { category: 'S', rate: '7', treatment: 'reduced', net: '-10', vat: '-0.70' },
      ],
    });
    const rows = bookingLinesOf(inv, skr03, opts);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.fields[c('Soll/Haben-Kennzeichen')]).toBe('"H"');
    expect(rows[0]!.fields[c('Umsatz (ohne Soll/Haben-Kz)')]).toBe('10,70');
  });
});

describe('master data', () => {
  it('writes one Debitoren row per debtor account: company type 2 with split VAT ID, person type 1', () => {
    const person = invoice({
      invoiceId: 2,
      customerNumber: 10001,
      buyer: {
        name: 'Erika Mustermann',
        firstName: 'Erika',
        lastName: 'Mustermann',
        address: { line1: 'Weg 2', city: 'Bonn', postalCode: '53111', countryCode: 'DE' },
      },
    });
    const lines = debtorLines([invoice(), invoice({ invoiceId: 3 }), person], skr03).map((l) => l.split(';'));
    const d = (h: string) => columnIndex(DEBTOR_COLUMNS, h);
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toHaveLength(DEBTOR_COLUMNS.length);
    const [p, co] = lines;
    expect([
      p![d('Konto')],
      p![d('Name (Adressatentyp natürl. Person)')],
      p![d('Vorname (Adressatentyp natürl. Person)')],
      p![d('Adressatentyp')],
    ]).toEqual(['10001', '"Mustermann"', '"Erika"', '1']);
    expect([
      co![d('Konto')],
      co![d('Name (Adressatentyp Unternehmen)')],
      co![d('Adressatentyp')],
      co![d('EU-Land')],
      co![d('EU-USt-IdNr.')],
    ]).toEqual(['10023', '"Müller & Söhne GmbH"', '2', '"DE"', '"123456788"']);
    expect([co![d('Straße')], co![d('Postleitzahl')], co![d('Ort')], co![d('Land')], co![d('E-Mail')], co![d('Kundennummer')]]).toEqual([
      '"Hauptstraße 1"',
      '"50667"',
      '"Köln"',
      '"DE"',
      '"buch@mueller.example"',
      '"10023"',
    ]);
  });
});

// Property: the rows of a batch sum to the gross totals of the invoices in it (credit notes negative).
describe('batch totals (property)', () => {
  const line = fc.record({
    quantity: fc
      .integer({ min: -3, max: 50 })
      .filter((q) => q !== 0)
      .map(String), // a negative quantity: a refund line
    unitPrice: fc.integer({ min: 0, max: 500_000 }).map((cents) => (cents / 100).toFixed(2)),
    vat: fc.constantFrom(
      { category: 'S', rate: '19' },
      { category: 'S', rate: '7' },
      { category: 'K', rate: '0' },
      { category: 'AE', rate: '0' },
      { category: 'E', rate: '0' },
    ),
  });
  const inv = fc.record({
    lines: fc.array(line, { minLength: 1, maxLength: 6 }),
    credit: fc.boolean(),
    customer: fc.integer({ min: 10_000, max: 69_999 }),
  });

  it('sums every batch to the gross totals of its invoices', () => {
    fc.assert(
      fc.property(fc.array(inv, { minLength: 1, maxLength: 20 }), (drafts) => {
        const invoices: ExportInvoice[] = drafts.map((d, i) => {
          const t = computeTotals({ lines: d.lines.map((l) => ({ quantity: l.quantity, unitPrice: l.unitPrice, vat: l.vat })) });
          return invoice({
            invoiceId: i + 1,
            number: `RE-${i + 1}`,
            typeCode: d.credit ? '381' : '380',
            customerNumber: d.customer,
            vatGroups: t.vatBreakdown.map((v) => ({
              category: v.category,
              rate: v.rate,
              treatment: 'x',
              net: v.taxableAmount,
              vat: v.taxAmount,
            })),
            totalGross: t.taxInclusiveTotal,
          });
        });
        const slice = { fiscalYearStart: '2026-01-01', from: '2026-01-01', to: '2026-12-31' };
        const batch = buildBatch(slice, invoices, skr03, {
          companyId: 'c',
          createdAt: new Date(),
          consultantNumber: 1001,
          clientNumber: 1,
          includeMasterData: true,
          includeDocuments: false,
        });
        const expected = sumDecimals(invoices.map((i) => toDecimal(i.totalGross).times(i.typeCode === '381' ? -1 : 1)));
        expect(batch.grossTotal).toBe(expected.toFixed(2));
        // and the file says the same: S rows minus H rows
        const rows = batch.bookings
          .split('\r\n')
          .slice(2, -1)
          .map((l) => l.split(';'));
        const fileSum = sumDecimals(rows.map((r) => toDecimal(r[0]!.replace(',', '.')).times(r[1] === '"S"' ? 1 : -1)));
        expect(fileSum.toFixed(2)).toBe(expected.toFixed(2));
        for (const r of rows) expect(r).toHaveLength(125);
      }),
      { numRuns: 200 },
    );
  });
});
