import type { CompanyDoc, PaymentTermDoc } from '../db/companies';

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

export const presentPaymentTerm = (c: CompanyDoc) => (t: PaymentTermDoc) => ({
  id: t.id,
  name: t.name,
  days: t.days,
  discount: t.discount ? { percent: t.discount.percent, days: t.discount.days } : null,
  text_de: t.textDe ?? null,
  text_en: t.textEn ?? null,
  is_default: defaultPaymentTerm(c)?.id === t.id,
});
