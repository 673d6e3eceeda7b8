import type { InvoiceSnapshot, messages } from '@inv/contracts';
import type { z } from 'zod';
import type { InvoiceDoc } from '../db/invoices';
import { vatOf } from './totals';

type SellerProfile = z.output<(typeof messages.rpc)['account.seller-profile.v1']['response']>;
type BuyerProfile = z.output<(typeof messages.rpc)['customer.billing-snapshot.v1']['response']>;

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
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
  const termDays = seller.paymentTermDays ?? 14;
  const isCredit = inv.typeCode === '381';
  const emptyParty = { name: '', address: { line1: '', city: '', countryCode: 'DE' } };
  const notes = [inv.note].filter((n): n is string => Boolean(n));
  return {
    number: inv.number,
    issueDate,
    typeCode: inv.typeCode,
    currency: 'EUR',
    dueDate: isCredit ? undefined : addDays(issueDate, termDays),
    buyerReference: inv.buyerReference,
    precedingInvoice: preceding,
    period: inv.benefitPeriodStart && inv.benefitPeriodEnd ? { start: inv.benefitPeriodStart, end: inv.benefitPeriodEnd } : undefined,
    deliveryDate: inv.benefitPeriodStart ? undefined : issueDate,
    notes: notes.length ? notes : undefined,
    // A credit note's amount is owed to the buyer: the terms state how it is settled (BR-CO-25 needs terms
    // or a due date for a positive amount due, and a due date would read as a demand for payment).
    paymentTerms: isCredit
      ? language === 'de'
        ? 'Der Betrag wird Ihnen erstattet oder mit offenen Rechnungen verrechnet.'
        : 'The amount will be refunded to you or offset against open invoices.'
      : language === 'de'
        ? `Zahlbar innerhalb von ${termDays} Tagen ohne Abzug.`
        : `Payable within ${termDays} days without deduction.`,
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
    payment: isCredit ? { meansCode: '97', remittanceInfo: inv.number } : seller.payment ? { ...seller.payment, remittanceInfo: inv.number } : undefined,
    language,
    customerNumber: buyer.customerNumber,
  };
}
