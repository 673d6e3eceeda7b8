import type { InvoiceSnapshot, messages } from '@inv/contracts';
import type { z } from 'zod';
import type { InvoiceDoc } from './invoice';
import { addDays, applicableTerm, paymentTermsOf } from './payment-terms';
import { formatAmount, toDecimal } from '@inv/money';
import { totalsOf, vatOf } from './totals';

type SellerProfile = z.output<(typeof messages.rpc)['account.seller-profile.v1']['response']>;
type BuyerProfile = z.output<(typeof messages.rpc)['customer.billing-snapshot.v1']['response']>;

/** The legal note of a Kleinunternehmer (§ 19 UStG), also the exemption reason (BT-120) of its category E. */
export const SMALL_BUSINESS_NOTE = {
  de: 'Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.',
  en: 'No VAT is charged: small business under § 19 UStG (German VAT Act).',
} as const;

/** A Kleinunternehmer's positions: VAT-exempt (category E, rate 0) whatever was entered. */
export function asSmallBusinessPositions(positions: InvoiceDoc['positions']): InvoiceDoc['positions'] {
  return positions.map((p) => ({ ...p, taxTreatmentId: 'exempt', taxRate: '0' }));
}

/**
 * Freezes an invoice with its seller and buyer as they are now into the EN 16931 shape document-service
 * renders. Pure: the caller fetched seller and buyer. Missing parties become empty placeholders so that
 * validation can name every missing field instead of failing on the first.
 */
export function buildSnapshot(
  inv: InvoiceDoc,
  issueDate: string,
  seller: SellerProfile,
  buyer: BuyerProfile,
  preceding?: { number: string; issueDate?: string },
): InvoiceSnapshot {
  const language = buyer.language ?? 'de';
  const isCredit = inv.typeCode === '381';
  const emptyParty = { name: '', address: { line1: '', city: '', countryCode: 'DE' } };
  const smallBusiness = seller.smallBusiness === true;
  const notes = [inv.note, smallBusiness ? SMALL_BUSINESS_NOTE[language] : undefined].filter((n): n is string => Boolean(n));
  let terms: { dueDate?: string; text: string };
  let earlyPaymentDiscount: InvoiceSnapshot['earlyPaymentDiscount'];
  if (isCredit) {
    // A credit note's amount is owed to the buyer: the terms state how it is settled (BR-CO-25 needs terms
    // or a due date for a positive amount due, and a due date would read as a demand for payment).
    terms = {
      text:
        language === 'de'
          ? 'Der Betrag wird Ihnen erstattet oder mit offenen Rechnungen verrechnet.'
          : 'The amount will be refunded to you or offset against open invoices.',
    };
  } else {
    let gross = '0';
    try {
      gross = totalsOf(inv.positions).taxInclusiveTotal;
    } catch {
      // amounts out of bounds are refused by validation before a snapshot is used
    }
    const term = applicableTerm(seller, buyer.paymentTermId);
    terms = paymentTermsOf(term, issueDate, gross, language, inv.format);
    // the Skonto as data, for the formats with elements for it (FatturaPA ScontoPagamentoAnticipato)
    if (term.discount)
      earlyPaymentDiscount = {
        percent: String(term.discount.percent),
        days: term.discount.days,
        untilDate: addDays(issueDate, term.discount.days),
        amount: formatAmount(toDecimal(gross).times(term.discount.percent).dividedBy(100)),
      };
  }
  return {
    number: inv.number,
    issueDate,
    typeCode: inv.typeCode,
    currency: 'EUR',
    dueDate: terms.dueDate,
    buyerReference: inv.buyerReference,
    precedingInvoice: preceding,
    period: inv.benefitPeriodStart && inv.benefitPeriodEnd ? { start: inv.benefitPeriodStart, end: inv.benefitPeriodEnd } : undefined,
    deliveryDate: inv.benefitPeriodStart ? undefined : issueDate,
    notes: notes.length ? notes : undefined,
    paymentTerms: terms.text,
    earlyPaymentDiscount,
    seller: seller.seller ?? emptyParty,
    buyer: buyer.buyer ?? emptyParty,
    lines: inv.positions.map((p) => ({
      id: String(p.id),
      name: p.title,
      description: p.description,
      quantity: p.quantity,
      unitCode: p.unitCode,
      unitPrice: p.unitPrice,
      discount: p.discountType && p.discountValue !== undefined ? { type: p.discountType, value: p.discountValue } : undefined,
      vat: vatOf(p),
    })),
    // A credit note is settled by refund or by offsetting it against open invoices: payment means 97
    // (UNCL 4461 "clearing between partners"), which needs no account of the seller (BR-61 applies to 30/58).
    payment: isCredit
      ? { meansCode: '97', remittanceInfo: inv.number }
      : seller.payment
        ? { ...seller.payment, remittanceInfo: inv.number }
        : undefined,
    exemptions: smallBusiness ? { E: { reason: SMALL_BUSINESS_NOTE[language] } } : undefined,
    language,
    customerNumber: buyer.customerNumber,
  };
}
