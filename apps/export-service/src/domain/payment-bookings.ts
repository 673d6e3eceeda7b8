import { createHash } from 'node:crypto';
import { Dec, toDecimal } from '@inv/money';
import { BOOKING_COLUMNS, columnIndex } from './columns';
import { ExportDataError, type BookingLine } from './bookings';
import type { ExportInvoice } from './export-invoice';
import type { ExportPayment, ExportSupplierInvoice } from './export-payment';
import { amount, belegfeld, ddmm, text } from './extf';
import { kursText, supplierRateOf, toEur, type SupplierRate } from './exchange-rate';
import { creditorAccountOf, debtorAccountOf, discountAccountOf, inputTaxKeyOf, type EffectiveMappings } from './mapping-rules';

const col = (h: string) => columnIndex(BOOKING_COLUMNS, h);
const C = {
  umsatz: col('Umsatz (ohne Soll/Haben-Kz)'),
  sh: col('Soll/Haben-Kennzeichen'),
  wkz: col('WKZ Umsatz'),
  kurs: col('Kurs'),
  basisUmsatz: col('Basis-Umsatz'),
  wkzBasis: col('WKZ Basis-Umsatz'),
  konto: col('Konto'),
  gegenkonto: col('Gegenkonto (ohne BU-Schlüssel)'),
  bu: col('BU-Schlüssel'),
  belegdatum: col('Belegdatum'),
  belegfeld1: col('Belegfeld 1'),
  buchungstext: col('Buchungstext'),
  beleglink: col('Beleglink'),
};

function row(r: {
  gross: Dec;
  konto: number;
  gegenkonto: number;
  bu?: string;
  date: string;
  belegfeld1: string;
  buchungstext: string;
  beleglink?: string;
  /** A foreign-currency amount: `gross` is in `rate.currency`, converted to EUR in Basis-Umsatz. */
  rate?: SupplierRate;
}): string[] {
  const f = new Array<string>(BOOKING_COLUMNS.length).fill('');
  f[C.umsatz] = amount(r.gross);
  f[C.sh] = text(r.gross.gt(0) ? 'S' : 'H');
  f[C.wkz] = text(r.rate?.currency ?? 'EUR');
  if (r.rate) {
    f[C.kurs] = kursText(r.rate);
    f[C.basisUmsatz] = amount(toEur(r.gross, r.rate));
    f[C.wkzBasis] = text('EUR');
  }
  f[C.konto] = String(r.konto);
  f[C.gegenkonto] = String(r.gegenkonto);
  if (r.bu) f[C.bu] = text(r.bu, 4);
  f[C.belegdatum] = ddmm(r.date);
  f[C.belegfeld1] = text(belegfeld(r.belegfeld1), 36);
  f[C.buchungstext] = text(r.buchungstext, 60);
  if (r.beleglink) f[C.beleglink] = text(r.beleglink, 210);
  return f;
}

/**
 * Splits a Skonto amount over the invoice's VAT groups in proportion to their gross amounts, to the cent (the last
 * group takes the rounding rest), merged per Skonto account. Without VAT groups (an invoice the export knows no
 * breakdown of) it cannot say which rate the Skonto reduces: ExportDataError.
 */
export function discountSplit(discount: string, inv: ExportInvoice, m: EffectiveMappings): { account: number; amount: Dec }[] {
  const groups = (inv.vatGroups ?? []).map((g) => ({ g, gross: toDecimal(g.net).plus(g.vat).abs() })).filter((x) => x.gross.gt(0));
  if (groups.length === 0)
    throw new ExportDataError(
      `the Skonto of a payment on invoice ${inv.number} cannot be split by VAT rate (the invoice has no VAT groups)`,
    );
  const total = groups.reduce((s, x) => s.plus(x.gross), new Dec(0));
  const whole = toDecimal(discount).abs();
  const byAccount = new Map<number, Dec>();
  let rest = whole;
  groups.forEach((x, i) => {
    const account = discountAccountOf(m, x.g.category, x.g.rate);
    if (account === undefined)
      throw new ExportDataError(
        `no Skonto account for VAT rate ${x.g.rate} % (invoice ${inv.number}); only 19 % and 7 % have granted-Skonto accounts`,
      );
    const part = i === groups.length - 1 ? rest : whole.times(x.gross).dividedBy(total).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
    rest = rest.minus(part);
    byAccount.set(account, (byAccount.get(account) ?? new Dec(0)).plus(part));
  });
  return [...byAccount.entries()].filter(([, a]) => !a.isZero()).map(([account, a]) => ({ account, amount: a }));
}

/**
 * The rows of one payment: the bank account (S) against the customer's debtor account (the debtor of the invoice's
 * own rows), Belegfeld 1 = the invoice number, Belegdatum = the payment date; its Skonto as rows on the granted-Skonto
 * account(s) (automatic accounts: no BU key) against the same debtor, split by the invoice's VAT rates. A payment on a
 * credit note (money paid out) books H.
 */
export function paymentLinesOf(p: ExportPayment, inv: ExportInvoice | undefined, m: EffectiveMappings): BookingLine[] {
  if (!inv)
    throw new ExportDataError(
      `payment ${p.paymentId} belongs to invoice ${p.number}, which the export has not received as finalized yet; start the export again shortly`,
    );
  const debtor = debtorAccountOf(m, inv.customerNumber);
  const sign = (p.typeCode ?? inv.typeCode) === '381' ? -1 : 1;
  const out: BookingLine[] = [];
  const paid = toDecimal(p.amount).abs().times(sign);
  if (!paid.isZero())
    out.push({
      invoiceId: inv.invoiceId,
      gross: paid.toFixed(2),
      fields: row({
        gross: paid,
        konto: m.bankAccount,
        gegenkonto: debtor,
        date: p.date,
        belegfeld1: p.number,
        buchungstext: `Zahlung ${p.number} ${inv.buyer?.name ?? ''}`.trim(),
      }),
    });
  if (p.discount && !toDecimal(p.discount).isZero()) {
    for (const part of discountSplit(p.discount, inv, m)) {
      const gross = part.amount.times(sign);
      out.push({
        invoiceId: inv.invoiceId,
        gross: gross.toFixed(2),
        fields: row({
          gross,
          konto: part.account,
          gegenkonto: debtor,
          date: p.date,
          belegfeld1: p.number,
          buchungstext: `Skonto ${p.number} ${inv.buyer?.name ?? ''}`.trim(),
        }),
      });
    }
  }
  return out;
}

/** The document guid of a received invoice's original (Beleglink), stable per company and received document. */
export function supplierDocumentGuid(companyId: string, inboundId: number): string {
  const h = createHash('sha256').update(`export-inbound:${companyId}:${inboundId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A received credit note (UNTDID 381) reduces what we owe: it books S on the creditor. */
const isCreditNote = (typeCode: string | undefined) => typeCode === '381';

/**
 * The rows of one received invoice: the supplier's creditor account (H: we owe) against the expense account of the
 * mapping with the input-tax BU key of each VAT group (9 = 19 %, 8 = 7 % Vorsteuer; none for other categories), one
 * row per category and rate, gross amount; Belegfeld 1 = the supplier's invoice number; a Beleglink to the original
 * when documents are included. An invoice in another currency than EUR is booked in its currency (WKZ Umsatz) with
 * the Kurs (units per 1 EUR) and the Basis-Umsatz in EUR (WKZ Basis-Umsatz EUR); the rate comes from supplierRateOf
 * (the invoice's own EUR VAT figures, else the export request), and without one the export fails naming the invoice.
 */
export function supplierLinesOf(
  s: ExportSupplierInvoice,
  m: EffectiveMappings,
  opts: { companyId: string; withDocuments: boolean; exchangeRates?: Readonly<Record<string, string>> },
): BookingLine[] {
  const groups = s.vatBreakdown ?? [];
  if (groups.length === 0)
    throw new ExportDataError(
      `the received invoice ${s.number} (inbound ${s.inboundId}) has no VAT breakdown; it cannot be booked per rate`,
    );
  const creditor = creditorAccountOf(m, s.supplierId);
  const rate = supplierRateOf(s, opts.exchangeRates);
  const sign = isCreditNote(s.typeCode) ? 1 : -1;
  const out: BookingLine[] = [];
  for (const g of groups) {
    const gross = toDecimal(g.net).plus(g.vat).times(sign);
    if (gross.isZero()) continue;
    out.push({
      invoiceId: s.inboundId,
      // the batch's control sums are in EUR: a foreign amount counts with its Basis-Umsatz
      gross: (rate ? toEur(gross, rate) : gross).toFixed(2),
      fields: row({
        gross,
        rate,
        konto: creditor,
        gegenkonto: m.expenseAccount,
        bu: inputTaxKeyOf(g.category, g.rate),
        date: s.issueDate,
        belegfeld1: s.number,
        buchungstext: `ER ${s.number} ${s.sellerName ?? ''}`.trim(),
        beleglink: opts.withDocuments && s.original ? `BEDI "${supplierDocumentGuid(opts.companyId, s.inboundId)}"` : undefined,
      }),
    });
  }
  return out;
}
