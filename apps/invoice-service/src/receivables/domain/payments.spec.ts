import { PaymentCreate } from '@inv/contracts';
import {
  amountToCents,
  appliedCreditCents,
  centsToText,
  decidePayment,
  openCentsOf,
  paymentDateProblem,
  paymentStateOf,
  settledByCredit,
} from './payments';
import { canMoveByPayment, statusAfterReversal } from '../../invoices';

const state = (grossCents: number, paidCents = 0, discountCents = 0, creditedCents = 0) => ({
  grossCents,
  paidCents,
  discountCents,
  creditedCents,
});
// 2 % Skonto of 119.00 until 2026-11-27
const skonto = { percent: '2', untilDate: '2026-11-27', amount: '2.38', days: 7 };

describe('payments domain', () => {
  it('open amount = gross - paid - Skonto, never below zero', () => {
    expect(openCentsOf(state(11900))).toBe(11900);
    expect(openCentsOf(state(11900, 5000))).toBe(6900);
    expect(openCentsOf(state(11900, 11662, 238))).toBe(0);
    expect(openCentsOf(state(100, 200))).toBe(0);
  });

  it('finalized credit notes lower the open amount; one that leaves nothing open settles an OPEN or SENT invoice', () => {
    expect(openCentsOf(state(11900, 0, 0, 1900))).toBe(10000);
    expect(openCentsOf(state(11900, 5000, 0, 6900))).toBe(0);
    expect(settledByCredit(state(11900, 5000), 'SENT', 6900)).toBe(true);
    expect(settledByCredit(state(11900), 'OPEN', 1900)).toBe(false);
    expect(settledByCredit(state(11900, 11900), 'PAID', 1900)).toBe(false);
    // marked PAID by a credit note without payments: nothing counts as paid
    expect(paymentStateOf({ status: 'PAID', positions: [], grossCents: 11900, paidCents: 0, creditSettledCents: 11900 })).toEqual(
      state(11900, 0, 0, 11900),
    );
  });

  it('a credit note applies what its invoice still owed (at most its gross); the rest is a refund owed on it', () => {
    expect(appliedCreditCents(state(11900), 11900)).toBe(11900);
    expect(appliedCreditCents(state(11900, 10000), 6900)).toBe(1900);
    expect(appliedCreditCents(state(11900, 11900), 1900)).toBe(0);
    expect(appliedCreditCents(state(11900, 0, 0, 11000), 900)).toBe(900);
    // the credit note's open amount: gross - refunded - applied
    expect(openCentsOf(state(6900, 0, 0, 1900))).toBe(5000);
    expect(openCentsOf(state(6900, 5000, 0, 1900))).toBe(0);
  });

  it('amounts are exact cents (no float rounding)', () => {
    expect(amountToCents('0.1')).toBe(10);
    expect(amountToCents('0.29')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(amountToCents('999999999.99')).toBe(99999999999);
    expect(centsToText(1)).toBe('0.01');
    expect(centsToText(11662)).toBe('116.62');
  });

  it('older documents without grossCents derive it from their positions', () => {
    const positions = [
      { id: 1, title: 'x', quantity: '3', unitCode: 'C62', unitPrice: '0.10', taxRate: '0.19', taxTreatmentId: 'standard' as const },
    ];
    expect(paymentStateOf({ status: 'OPEN', positions })).toEqual(state(36)); // 0.30 net + 0.057 VAT = 0.357 -> 0.36
    // marked PAID before payments were recorded: paid in full
    expect(paymentStateOf({ status: 'PAID', positions, grossCents: 11900 })).toEqual(state(11900, 11900));
    expect(paymentStateOf({ status: 'PAID', positions, grossCents: 11900, paidCents: 11662, discountCents: 238 })).toEqual(
      state(11900, 11662, 238),
    );
  });

  it('a partial payment leaves the rest open; the last one closes the invoice', () => {
    expect(decidePayment(state(11900), 5000, '2026-12-10', undefined, undefined)).toEqual({
      ok: true,
      amountCents: 5000,
      discountCents: 0,
      openAfterCents: 6900,
      paidInFull: false,
    });
    expect(decidePayment(state(11900, 5000), 6900, '2026-12-10', undefined, undefined)).toMatchObject({ ok: true, paidInFull: true });
  });

  it('an overpayment is refused naming the open amount', () => {
    expect(decidePayment(state(11900, 5000), 6901, '2026-12-10', undefined, undefined)).toEqual({
      ok: false,
      reason: 'EXCEEDS_OPEN_AMOUNT',
      openCents: 6900,
    });
  });

  it('Skonto within its period: open - discount closes the invoice with the discount recorded', () => {
    expect(decidePayment(state(11900), 11662, '2026-11-27', skonto, undefined)).toEqual({
      ok: true,
      amountCents: 11662,
      discountCents: 238,
      openAfterCents: 0,
      paidInFull: true,
    });
    // after a partial payment within the period too
    expect(decidePayment(state(11900, 5000), 6662, '2026-11-25', skonto, undefined)).toMatchObject({
      discountCents: 238,
      paidInFull: true,
    });
  });

  it('no Skonto after its period, for other amounts, twice, or when refused', () => {
    expect(decidePayment(state(11900), 11662, '2026-11-28', skonto, undefined)).toMatchObject({ discountCents: 0, openAfterCents: 238 });
    expect(decidePayment(state(11900), 11000, '2026-11-20', skonto, undefined)).toMatchObject({ discountCents: 0, openAfterCents: 900 });
    expect(decidePayment(state(11900), 11662, '2026-11-20', skonto, false)).toMatchObject({ discountCents: 0, openAfterCents: 238 });
    expect(decidePayment(state(11900, 0, 238), 11662, '2026-11-20', skonto, undefined)).toMatchObject({
      discountCents: 0,
      paidInFull: true,
    });
  });

  it('skonto: true insists and says why it does not apply', () => {
    expect(decidePayment(state(11900), 11662, '2026-11-28', skonto, true)).toMatchObject({
      ok: false,
      reason: 'SKONTO_NOT_APPLICABLE',
      detail: 'the Skonto period ended on 2026-11-27',
    });
    expect(decidePayment(state(11900), 11000, '2026-11-20', skonto, true)).toMatchObject({
      ok: false,
      detail: expect.stringContaining('exactly 116.62'),
    });
    expect(decidePayment(state(11900), 11662, '2026-11-20', undefined, true)).toMatchObject({ ok: false, reason: 'SKONTO_NOT_APPLICABLE' });
    expect(decidePayment(state(11900), 11662, '2026-11-20', skonto, true)).toMatchObject({ ok: true, discountCents: 238 });
  });

  it('payment dates: not before the invoice date, at most tomorrow', () => {
    expect(paymentDateProblem('2026-11-19', '2026-11-20', '2026-11-25')).toMatch(/before the invoice date 2026-11-20/);
    expect(paymentDateProblem('2026-11-20', '2026-11-20', '2026-11-25')).toBeUndefined();
    expect(paymentDateProblem('2026-11-26', '2026-11-20', '2026-11-25')).toBeUndefined();
    expect(paymentDateProblem('2026-11-27', '2026-11-20', '2026-11-25')).toMatch(/2026-11-26/);
    expect(paymentDateProblem('2027-01-01', undefined, '2026-12-31')).toBeUndefined();
  });

  it('reversal returns a PAID document to the status it was paid in', () => {
    expect(statusAfterReversal('OPEN')).toBe('OPEN');
    expect(statusAfterReversal('SENT')).toBe('SENT');
    expect(statusAfterReversal(undefined)).toBe('SENT');
    expect(canMoveByPayment('PAID', 'SENT')).toBe(true);
    expect(canMoveByPayment('PAID', 'OPEN')).toBe(true);
    expect(canMoveByPayment('DRAFT', 'PAID')).toBe(false);
    expect(canMoveByPayment('CANCELLED', 'PAID')).toBe(false);
  });
});

describe('PaymentCreate', () => {
  const ok = { amount: '10.00', date: '2026-11-20', method: 'BANK_TRANSFER' };
  it('takes decimal strings and JSON numbers with at most 2 decimals', () => {
    expect(PaymentCreate.parse(ok).amount).toBe('10.00');
    expect(PaymentCreate.parse({ ...ok, amount: 10.5 }).amount).toBe('10.5');
  });
  it.each([['0'], ['-1'], ['1.001'], ['abc'], ['1e5'], ['1000000000'], [0], [Infinity]])('refuses amount %p', (amount) => {
    expect(PaymentCreate.safeParse({ ...ok, amount }).success).toBe(false);
  });
  it('refuses unknown fields, bad dates, methods and unsafe references', () => {
    expect(PaymentCreate.safeParse({ ...ok, note: 'x' }).success).toBe(false);
    expect(PaymentCreate.safeParse({ ...ok, date: '2026-13-01' }).success).toBe(false);
    expect(PaymentCreate.safeParse({ ...ok, method: 'GOLD' }).success).toBe(false);
    expect(PaymentCreate.safeParse({ ...ok, reference: 'x'.repeat(201) }).success).toBe(false);
    expect(PaymentCreate.safeParse({ ...ok, reference: 'a\u0000b' }).success).toBe(false);
  });
});
