import { createHash } from 'node:crypto';
import { toDecimal } from '@inv/money';
import { BOOKING_COLUMNS, columnIndex } from './columns';
import type { ExportInvoice } from './export-invoice';
import { amount, belegfeld, ddmm, ddmmyyyy, line, text } from './extf';
import { debtorAccountOf, revenueAccountOf, type EffectiveMappings } from './mapping-rules';

const col = (h: string) => columnIndex(BOOKING_COLUMNS, h);
const C = {
  umsatz: col('Umsatz (ohne Soll/Haben-Kz)'),
  sh: col('Soll/Haben-Kennzeichen'),
  wkz: col('WKZ Umsatz'),
  konto: col('Konto'),
  gegenkonto: col('Gegenkonto (ohne BU-Schlüssel)'),
  belegdatum: col('Belegdatum'),
  belegfeld1: col('Belegfeld 1'),
  belegfeld2: col('Belegfeld 2'),
  buchungstext: col('Buchungstext'),
  beleginfoArt1: col('Beleginfo - Art 1'),
  beleginfoInhalt1: col('Beleginfo - Inhalt 1'),
  beleglink: col('Beleglink'),
  euUstId: col('EU-Land u. UStID (Bestimmung)'),
  leistungsdatum: col('Leistungsdatum'),
  faelligkeit: col('Fälligkeit'),
};

/** Thrown for data the export cannot book (the job fails with this message; the user can fix it). */
export class ExportDataError extends Error {
  override name = 'ExportDataError';
}

/** VAT categories whose rows carry the customer's VAT ID (they feed the EU sales list). */
const EU_ID_CATEGORIES = new Set(['AE', 'K']);

/** A VAT ID as DATEV wants it: no spaces or dots, upper case, Greece as EL; at most 15 characters. */
export function datevVatId(vatId: string | undefined): string {
  if (!vatId) return '';
  const v = vatId.replace(/[\s.\-]/g, '').toUpperCase();
  return (v.startsWith('GR') ? `EL${v.slice(2)}` : v).slice(0, 15);
}

/** The document guid behind a Beleglink: stable per company and invoice, so a redone export links the same. */
export function documentGuid(companyId: string, invoiceId: number): string {
  const h = createHash('sha256').update(`export-document:${companyId}:${invoiceId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Belegfeld 2 holds at most 12 characters (Belegfeld 1: 36). */
export const BELEGFELD2_LENGTH = 12;

/**
 * How a credit note's rows name the invoice it corrects, never ambiguously: the full invoice number always in
 * Beleginfo - Art 1 / Inhalt 1 ("Rechnung" / the number as issued, up to 210 characters), and in Belegfeld 2
 * only when it fits there whole. A number cut to 12 characters could name another invoice (RE-2026-00042 and
 * RE-2026-00045 would both be RE-2026-0004), so a longer one leaves Belegfeld 2 empty.
 */
export function creditedInvoiceRef(invoiceNumber: string): { belegfeld2?: string; art: string; inhalt: string } {
  const key = belegfeld(invoiceNumber);
  return {
    belegfeld2: key.length > 0 && key.length <= BELEGFELD2_LENGTH && key === invoiceNumber ? key : undefined,
    art: 'Rechnung',
    inhalt: invoiceNumber,
  };
}

export interface BookingLine {
  invoiceId: number;
  gross: string; // signed: positive = debit the customer (S)
  fields: string[];
}

/**
 * The rows of one invoice: one per VAT category and rate, gross amount (net + VAT of the group), the
 * customer's debtor account against the revenue account of the mapping. Invoices book S (the customer owes),
 * credit notes H; a group with a negative amount flips its flag. Zero rows are left out (DATEV rejects them).
 */
export function bookingLinesOf(
  inv: ExportInvoice,
  m: EffectiveMappings,
  opts: { companyId: string; withDocuments: boolean },
): BookingLine[] {
  if (!inv.vatGroups || inv.vatGroups.length === 0) {
    throw new ExportDataError(`invoice ${inv.number} was finalized before the export recorded VAT groups; it cannot be booked per rate`);
  }
  const debtor = debtorAccountOf(m, inv.customerNumber);
  const sign = inv.typeCode === '381' ? -1 : 1;
  const out: BookingLine[] = [];
  for (const g of inv.vatGroups) {
    const account = revenueAccountOf(m, g.category, g.rate);
    if (account === undefined) {
      throw new ExportDataError(
        `no revenue account is mapped for VAT category ${g.category} at ${g.rate} % (invoice ${inv.number}); add a row with PUT /acctexp/mappings`,
      );
    }
    const gross = toDecimal(g.net).plus(g.vat).times(sign);
    if (gross.isZero()) continue;
    const f = new Array<string>(BOOKING_COLUMNS.length).fill('');
    f[C.umsatz] = amount(gross);
    f[C.sh] = text(gross.isPositive() ? 'S' : 'H');
    f[C.wkz] = text('EUR');
    f[C.konto] = String(debtor);
    f[C.gegenkonto] = String(account);
    f[C.belegdatum] = ddmm(inv.invoiceDate);
    f[C.belegfeld1] = text(belegfeld(inv.number), 36);
    if (inv.typeCode === '381' && inv.precedingInvoiceNumber) {
      const ref = creditedInvoiceRef(inv.precedingInvoiceNumber);
      if (ref.belegfeld2) f[C.belegfeld2] = text(ref.belegfeld2, BELEGFELD2_LENGTH);
      f[C.beleginfoArt1] = text(ref.art, 20);
      f[C.beleginfoInhalt1] = text(ref.inhalt, 210);
    }
    // a credit note is the seller's correction of its invoice (Rechnungskorrektur), as its PDF says: "Gutschrift" is
    // the buyer's self-billing in § 14 (2) UStG terms
    f[C.buchungstext] = text(
      `${inv.typeCode === '381' ? 'Rechnungskorrektur' : 'Rechnung'} ${inv.number} ${inv.buyer?.name ?? ''}`.trim(),
      60,
    );
    if (opts.withDocuments && inv.pdfKey) f[C.beleglink] = text(`BEDI "${documentGuid(opts.companyId, inv.invoiceId)}"`, 210);
    if (EU_ID_CATEGORIES.has(g.category)) f[C.euUstId] = text(datevVatId(inv.buyer?.vatId), 15);
    if (inv.serviceDate) f[C.leistungsdatum] = ddmmyyyy(inv.serviceDate);
    if (inv.typeCode === '380' && inv.dueDate) f[C.faelligkeit] = ddmmyyyy(inv.dueDate);
    out.push({ invoiceId: inv.invoiceId, gross: gross.toFixed(2), fields: f });
  }
  return out;
}

export const bookingLineText = (b: BookingLine) => line(b.fields);
