import type { CompanyDoc, PaymentTermDoc } from './company-doc';

/** Every company starts with these (the same ids customers referred to before terms were editable). */
export const DEFAULT_PAYMENT_TERMS: readonly PaymentTermDoc[] = [
  { id: 1, name: '14 days', days: 14 },
  { id: 2, name: '30 days', days: 30 },
];

export const paymentTermsOf = (c: CompanyDoc): PaymentTermDoc[] => c.paymentTerms ?? DEFAULT_PAYMENT_TERMS.map((t) => ({ ...t }));

/** The company's default term: the one it chose, else the term matching its legacy payment_term_days, else the first. */
export function defaultPaymentTerm(c: CompanyDoc): PaymentTermDoc | undefined {
  const terms = paymentTermsOf(c);
  return (
    terms.find((t) => t.id === c.defaultPaymentTermId) ??
    (c.defaultPaymentTermId === undefined ? terms.find((t) => t.days === c.paymentTermDays) : undefined)
  );
}
