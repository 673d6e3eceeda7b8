import type { messages } from '@inv/contracts';
import { formatAmount, toDecimal } from '@inv/money';
import { documentDate, euros } from '../../platform';
import type { z } from 'zod';

type SellerProfile = z.output<(typeof messages.rpc)['account.seller-profile.v1']['response']>;
export type PaymentTermFacts = NonNullable<SellerProfile['paymentTerms']>[number];
type Language = 'de' | 'en';

/** The term of an invoice: the customer's if the company still has it, else the company's default, else `paymentTermDays` net. */
export function applicableTerm(seller: SellerProfile, customerTermId: number | undefined): PaymentTermFacts {
  const terms = seller.paymentTerms ?? [];
  return (
    terms.find((t) => t.id === customerTermId) ??
    terms.find((t) => t.id === seller.defaultPaymentTermId) ?? { id: 0, days: seller.paymentTermDays ?? 14 }
  );
}

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const day = documentDate;
const percentText = (p: number, language: Language) => (language === 'de' ? String(p).replace('.', ',') : String(p));
const moneyText = euros;

/**
 * BT-20 payment terms and BT-9 due date of an invoice, computed at finalization from the term: the company's
 * own text (placeholders filled) or a generated one. With Skonto, XRechnung additionally gets the structured
 * line its rule BR-DE-18 defines (`#SKONTO#TAGE=7#PROZENT=2.00#`), which German buyers' systems read.
 */
export function paymentTermsOf(
  term: PaymentTermFacts,
  issueDate: string,
  grossTotal: string,
  language: Language,
  format: string,
): { dueDate: string; text: string } {
  const dueDate = addDays(issueDate, term.days);
  const discount = term.discount;
  const discountDate = discount ? addDays(issueDate, discount.days) : undefined;
  const discountAmount = discount ? formatAmount(toDecimal(grossTotal).times(discount.percent).dividedBy(100)) : undefined;
  const values: Record<string, string> = {
    due_date: day(dueDate, language),
    days: String(term.days),
    discount_date: discountDate ? day(discountDate, language) : '',
    discount_percent: discount ? percentText(discount.percent, language) : '',
    discount_amount: discountAmount ? moneyText(discountAmount, language) : '',
  };
  const custom = language === 'de' ? term.textDe : term.textEn;
  let text: string;
  if (custom) text = custom.replace(/\{([a-z_]+)\}/g, (all, p: string) => values[p] ?? all);
  else if (language === 'de') {
    text =
      term.days === 0 ? 'Zahlbar sofort ohne Abzug.' : `Zahlbar innerhalb von ${term.days} Tagen ohne Abzug bis zum ${values.due_date}.`;
    if (discount)
      text += ` Bei Zahlung bis zum ${values.discount_date} gewähren wir ${values.discount_percent} % Skonto (${values.discount_amount}).`;
  } else {
    text =
      term.days === 0
        ? 'Payable immediately without deduction.'
        : `Payable within ${term.days} days without deduction by ${values.due_date}.`;
    if (discount)
      text += ` ${values.discount_percent} % early-payment discount (${values.discount_amount}) for payment by ${values.discount_date}.`;
  }
  if (discount && format === 'XRECHNUNG') text += `\n#SKONTO#TAGE=${discount.days}#PROZENT=${discount.percent.toFixed(2)}#\n`;
  return { dueDate, text };
}
