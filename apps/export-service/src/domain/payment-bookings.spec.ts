import { BatchWriter, buildBatch } from './batch';
import { ExportDataError } from './bookings';
import { BOOKING_COLUMNS, columnIndex, DEBTOR_COLUMNS } from './columns';
import type { ExportInvoice } from './export-invoice';
import type { ExportPayment, ExportSupplierInvoice } from './export-payment';
import { checkMappingUpdate, creditorAccountOf, effectiveMappings, mismatchedAccounts } from './mapping-rules';
import { creditorLines, newestPerCreditor } from './debtors';
import { discountSplit, paymentLinesOf, supplierDocumentGuid, supplierLinesOf } from './payment-bookings';

const skr03 = effectiveMappings('SKR03', 4, null);
const skr04 = effectiveMappings('SKR04', 4, null);
const c = (h: string) => columnIndex(BOOKING_COLUMNS, h);
const pick = (f: string[]) => ({
  umsatz: f[c('Umsatz (ohne Soll/Haben-Kz)')],
  sh: f[c('Soll/Haben-Kennzeichen')],
  konto: f[c('Konto')],
  gegenkonto: f[c('Gegenkonto (ohne BU-Schlüssel)')],
  bu: f[c('BU-Schlüssel')],
  belegdatum: f[c('Belegdatum')],
  belegfeld1: f[c('Belegfeld 1')],
});

const invoice: ExportInvoice = {
  invoiceId: 1,
  number: 'RE-2026-0001',
  typeCode: '380',
  invoiceDate: '2026-03-05',
  customerId: 7,
  customerNumber: 10023,
  buyer: { name: 'Müller GmbH', address: { line1: 'Hauptstraße 1', city: 'Köln', countryCode: 'DE' } },
  vatGroups: [
    { category: 'S', rate: '19', treatment: 'standard', net: '100.00', vat: '19.00' },
    { category: 'S', rate: '7', treatment: 'reduced', net: '50.00', vat: '3.50' },
  ],
  totalGross: '172.50',
};
const payment = (over: Partial<ExportPayment> = {}): ExportPayment => ({
  paymentId: 11,
  invoiceId: 1,
  number: 'RE-2026-0001',
  amount: '169.05',
  discount: '3.45',
  date: '2026-03-12',
  ...over,
});
const supplier = (over: Partial<ExportSupplierInvoice> = {}): ExportSupplierInvoice => ({
  inboundId: 5,
  number: 'LF-778',
  issueDate: '2026-03-07',
  supplierId: 3,
  sellerName: 'Lieferant AG',
  sellerVatId: 'DE 987654321',
  vatBreakdown: [
    { category: 'S', rate: '19', net: '200.00', vat: '38.00' },
    { category: 'S', rate: '7', net: '10.00', vat: '0.70' },
  ],
  original: { key: 'cmp_1/inbound/5/original.xml', filename: 'original.xml', contentType: 'application/xml', size: 100 },
  ...over,
});

describe('payment bookings', () => {
  it('books the bank (S) against the debtor of the invoice, Belegfeld 1 = invoice number, date = payment date', () => {
    const [pay] = paymentLinesOf(payment({ discount: undefined }), invoice, skr03);
    expect(pick(pay!.fields)).toEqual({
      umsatz: '169,05',
      sh: '"S"',
      konto: '1200',
      gegenkonto: '10023',
      bu: '',
      belegdatum: '1203',
      belegfeld1: '"RE-2026-0001"',
    });
    expect(pick(paymentLinesOf(payment({ discount: undefined }), invoice, skr04)[0]!.fields).konto).toBe('1800');
  });

  it('books Skonto on the granted-Skonto accounts by the invoice VAT rates (proportional, to the cent), no BU key', () => {
    const rows = paymentLinesOf(payment(), invoice, skr03).map((r) => pick(r.fields));
    expect(rows.slice(1)).toEqual([
      { umsatz: '2,38', sh: '"S"', konto: '8736', gegenkonto: '10023', bu: '', belegdatum: '1203', belegfeld1: '"RE-2026-0001"' },
      { umsatz: '1,07', sh: '"S"', konto: '8731', gegenkonto: '10023', bu: '', belegdatum: '1203', belegfeld1: '"RE-2026-0001"' },
    ]);
    expect(
      paymentLinesOf(payment(), invoice, skr04)
        .slice(1)
        .map((r) => pick(r.fields).konto),
    ).toEqual(['4736', '4731']);
  });

  it('splits Skonto so the parts add up exactly, untaxed groups on the untaxed Skonto account', () => {
    const inv = {
      ...invoice,
      vatGroups: [...invoice.vatGroups!, { category: 'AE', rate: '0', treatment: 'reverse_charge', net: '0.01', vat: '0' }],
    };
    const parts = discountSplit('0.05', inv, skr03);
    expect(parts.reduce((s, p) => s + Math.round(Number(p.amount) * 100), 0)).toBe(5);
    expect(parts.map((p) => p.account)).toEqual(expect.arrayContaining([8736]));
    expect(
      discountSplit('10', { ...invoice, vatGroups: [{ category: 'E', rate: '0', treatment: 'exempt', net: '10', vat: '0' }] }, skr03),
    ).toEqual([{ account: 8730, amount: expect.anything() }]);
  });

  it('refuses a payment whose invoice the export does not know yet, and a refund of a credit note books H', () => {
    expect(() => paymentLinesOf(payment(), undefined, skr03)).toThrow(ExportDataError);
    const refund = paymentLinesOf(payment({ typeCode: '381', discount: undefined }), { ...invoice, typeCode: '381' }, skr03)[0]!;
    expect(pick(refund.fields).sh).toBe('"H"');
  });
});

describe('supplier bookings', () => {
  it('books the creditor (H) against the expense account with the input-tax BU key per rate', () => {
    const rows = supplierLinesOf(supplier(), skr03, { companyId: 'cmp_1', withDocuments: true });
    expect(rows.map((r) => pick(r.fields))).toEqual([
      { umsatz: '238,00', sh: '"H"', konto: '70003', gegenkonto: '4900', bu: '"9"', belegdatum: '0703', belegfeld1: '"LF-778"' },
      { umsatz: '10,70', sh: '"H"', konto: '70003', gegenkonto: '4900', bu: '"8"', belegdatum: '0703', belegfeld1: '"LF-778"' },
    ]);
    expect(rows[0]!.fields[c('Beleglink')]).toBe(`"BEDI ""${supplierDocumentGuid('cmp_1', 5)}"""`);
    expect(
      supplierLinesOf(supplier(), skr04, { companyId: 'cmp_1', withDocuments: false })[0]!.fields[c('Gegenkonto (ohne BU-Schlüssel)')],
    ).toBe('6300');
  });

  it('a received credit note books S; no VAT breakdown cannot be booked', () => {
    expect(pick(supplierLinesOf(supplier({ typeCode: '381' }), skr03, { companyId: 'c', withDocuments: false })[0]!.fields).sh).toBe('"S"');
    expect(() => supplierLinesOf(supplier({ vatBreakdown: [] }), skr03, { companyId: 'c', withDocuments: false })).toThrow(ExportDataError);
  });

  it('books an invoice in another currency in that currency with Kurs and Basis-Umsatz in EUR', () => {
    const gbp = supplier({ currency: 'GBP', vatBreakdown: [{ category: 'AE', rate: '0', net: '100.00', vat: '0.00' }] });
    const [r] = supplierLinesOf(gbp, skr03, { companyId: 'c', withDocuments: false, exchangeRates: { GBP: '0.8412' } });
    expect(['WKZ Umsatz', 'Umsatz (ohne Soll/Haben-Kz)', 'Kurs', 'Basis-Umsatz', 'WKZ Basis-Umsatz'].map((h) => r!.fields[c(h)])).toEqual([
      '"GBP"',
      '100,00',
      '0,8412',
      '118,88',
      '"EUR"',
    ]);
    expect(r!.gross).toBe('-118.88'); // the batch's sums are in EUR
    expect(() => supplierLinesOf(gbp, skr03, { companyId: 'c', withDocuments: false })).toThrow(ExportDataError);
  });

  it('names the collective creditor "Sammelkreditor", never after one of the suppliers booked on it', () => {
    const newest = new Map<number, ExportSupplierInvoice>();
    for (const x of [
      supplier({ supplierId: undefined, sellerName: 'Erster Lieferant GmbH', sellerVatId: 'DE111111111' }),
      supplier({ inboundId: 6, issueDate: '2026-03-09', supplierId: undefined, sellerName: 'Zweiter Lieferant GmbH' }),
      supplier(),
    ])
      newestPerCreditor(newest, x, skr03);
    const d = (h: string) => columnIndex(DEBTOR_COLUMNS, h);
    const rows = creditorLines(newest, skr03).map((l) => l.split(';'));
    expect(
      rows.map((f) => [f[d('Konto')], f[d('Name (Adressatentyp Unternehmen)')], f[d('Kurzbezeichnung')], f[d('EU-USt-IdNr.')]]),
    ).toEqual([
      ['70000', '"Sammelkreditor"', '"Sammelkreditor"', ''],
      ['70003', '"Lieferant AG"', '"Lieferant AG"', '"987654321"'],
    ]);
  });

  it('creditor accounts: 7*10^L + supplier id, the collective creditor without one', () => {
    expect(creditorAccountOf(skr03, 3)).toBe(70003);
    expect(creditorAccountOf(skr03, undefined)).toBe(70000);
    expect(creditorAccountOf(skr03, 40_000)).toBe(70000);
    expect(creditorAccountOf(effectiveMappings('SKR03', 5, null), 3)).toBe(700003);
  });

  it('a batch carries invoices, payments and supplier rows, Kreditoren beside Debitoren and the originals as Belegbilder', () => {
    const slice = { fiscalYearStart: '2026-01-01', from: '2026-01-01', to: '2026-12-31' };
    const o = {
      companyId: 'cmp_1',
      createdAt: new Date('2026-11-01T00:00:00Z'),
      consultantNumber: 1,
      clientNumber: 2,
      includeMasterData: true,
      includeDocuments: true,
    };
    const w = new BatchWriter(slice, skr03, o);
    w.add(invoice);
    w.addPayment(payment(), invoice);
    w.addSupplierInvoice(supplier());
    expect(w.rowCount).toBe(2 + 3 + 2);
    expect(w.paymentIds).toEqual([11]);
    expect(w.documents.map((d) => d.filename)).toEqual(['ER_LF-778_5.xml']);
    const master = w.debtors()!.split('\r\n');
    const konto = columnIndex(DEBTOR_COLUMNS, 'Konto');
    expect(master.slice(2, -1).map((l) => l.split(';')[konto])).toEqual(['10023', '70003']);
    expect(buildBatch(slice, [invoice], skr03, o).rowCount).toBe(2);
  });
});

describe('mappings of payments, Skonto and received invoices', () => {
  it('has chart defaults, scaled to the account length, overridable and checked', () => {
    expect([
      skr03.bankAccount,
      skr03.discountAccountStandard,
      skr03.discountAccountReduced,
      skr03.discountAccountUntaxed,
      skr03.expenseAccount,
    ]).toEqual([1200, 8736, 8731, 8730, 4900]);
    expect([
      skr04.bankAccount,
      skr04.discountAccountStandard,
      skr04.discountAccountReduced,
      skr04.discountAccountUntaxed,
      skr04.expenseAccount,
    ]).toEqual([1800, 4736, 4731, 4730, 6300]);
    expect(effectiveMappings('SKR03', 5, null).bankAccount).toBe(12000);
    expect(effectiveMappings('SKR03', 4, { rows: [], bankAccount: 1210 }).bankAccount).toBe(1210);
    expect(checkMappingUpdate({ bank_account: 12000, expense_account: 4980 }, 4).problems.map((p) => p.path)).toEqual(['bank_account']);
    expect(mismatchedAccounts({ rows: [], expenseAccount: 4980 }, 5)).toEqual(['expense_account: 4980']);
  });
});
