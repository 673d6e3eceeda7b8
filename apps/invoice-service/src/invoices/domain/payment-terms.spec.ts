import { addDays, applicableTerm, paymentTermsOf } from './payment-terms';

describe('payment terms of an invoice', () => {
  const skonto = { id: 3, days: 30, discount: { percent: 2, days: 10 } };
  const seller = { found: true, paymentTermDays: 21, paymentTerms: [{ id: 1, days: 14 }, skonto], defaultPaymentTermId: 1 } as const;

  it("uses the customer's term, else the company default, else payment_term_days", () => {
    expect(applicableTerm(seller as any, 3)).toBe(skonto);
    expect(applicableTerm(seller as any, 99).id).toBe(1); // a term the company deleted
    expect(applicableTerm(seller as any, undefined).id).toBe(1);
    expect(applicableTerm({ found: true, paymentTermDays: 21 } as any, undefined)).toEqual({ id: 0, days: 21 });
  });

  it('computes the due date across month and year ends', () => {
    expect(addDays('2026-12-20', 14)).toBe('2027-01-03');
    expect(addDays('2028-02-15', 14)).toBe('2028-02-29');
    expect(paymentTermsOf({ id: 0, days: 0 }, '2026-11-25', '100.00', 'de', 'ZUGFERD')).toEqual({
      dueDate: '2026-11-25',
      text: 'Zahlbar sofort ohne Abzug.',
    });
  });

  it('writes BT-20 with the Skonto amount in German and English', () => {
    const de = paymentTermsOf(skonto, '2026-11-25', '1190.00', 'de', 'ZUGFERD');
    expect(de.dueDate).toBe('2026-12-25');
    expect(de.text).toBe(
      'Zahlbar innerhalb von 30 Tagen ohne Abzug bis zum 25.12.2026. Bei Zahlung bis zum 05.12.2026 gewähren wir 2 % Skonto (23,80\u00a0€).',
    );
    const en = paymentTermsOf({ ...skonto, discount: { percent: 2.5, days: 10 } }, '2026-11-25', '1000.00', 'en', 'UBL');
    expect(en.text).toBe(
      'Payable within 30 days without deduction by 25 Dec 2026. 2.5 % early-payment discount (€25.00) for payment by 5 Dec 2026.',
    );
  });

  it("fills the company's own text and adds the structured Skonto line XRechnung defines", () => {
    const own = {
      ...skonto,
      textDe: 'Netto bis {due_date}; {discount_percent} % bis {discount_date} ({discount_amount}); {days} Tage; {unknown} bleibt',
    };
    const x = paymentTermsOf(own, '2026-11-25', '119.00', 'de', 'XRECHNUNG');
    expect(x.text).toBe(
      'Netto bis 25.12.2026; 2 % bis 05.12.2026 (2,38\u00a0€); 30 Tage; {unknown} bleibt\n#SKONTO#TAGE=10#PROZENT=2.00#\n',
    );
    expect(paymentTermsOf({ id: 1, days: 14 }, '2026-11-25', '119.00', 'de', 'XRECHNUNG').text).not.toContain('#SKONTO#');
  });
});
