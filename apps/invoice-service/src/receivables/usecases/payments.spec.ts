import { openInvoiceOf } from './import-bank-statement';
import { notRemindable, openAmountOf } from './issue-reminder';
import { markPaymentsExported } from './mark-payments-exported';
import { recordPayment } from './record-payment';
import { reversePayment } from './reverse-payment';
import { COMPANY, fakeDeps, position, storedDraft } from '../../testing/fake-deps';

// NOW is 2026-11-20; the invoice of 238.00 gross (2 h at 100.00, 19 %) is dated 2026-11-10
const finalized = (f: ReturnType<typeof fakeDeps>, overrides = {}) =>
  storedDraft(f, 1, { status: 'SENT', positions: [position(10)], grossCents: 23800, invoiceDate: '2026-11-10', ...overrides });
const input = (amount: string, extra = {}) => ({ amount, date: '2026-11-20', method: 'BANK_TRANSFER' as const, ...extra });

describe('recordPayment / reversePayment', () => {
  it('records a partial payment without a status change and announces it', async () => {
    const f = fakeDeps();
    finalized(f);
    const r = await recordPayment(f.deps, COMPANY, 1, input('38.00', { reference: 'RE 1' }), 'bank_statement');
    expect(r).toMatchObject({
      openAmount: 200,
      paidInFull: false,
      payment: { id: 1, amount: '38.00', discount: '0.00', source: 'bank_statement' },
    });
    expect(f.invoices.get(1)).toMatchObject({ status: 'SENT', paidCents: 3800, discountCents: 0 });
    expect(f.messages.map((m) => m.type)).toEqual(['invoice.payment-recorded.v1']);
  });

  it('refuses drafts, cancelled invoices, dates before the invoice date or after tomorrow, and overpayments', async () => {
    const f = fakeDeps();
    storedDraft(f, 2);
    storedDraft(f, 3, { status: 'CANCELLED' });
    finalized(f);
    await expect(recordPayment(f.deps, COMPANY, 2, input('1'), 'manual')).rejects.toMatchObject({
      options: { code: 'INVOICE_NOT_PAYABLE' },
    });
    await expect(recordPayment(f.deps, COMPANY, 3, input('1'), 'manual')).rejects.toMatchObject({
      options: { code: 'INVOICE_NOT_PAYABLE' },
    });
    await expect(recordPayment(f.deps, COMPANY, 1, input('1', { date: '2026-11-09' }), 'manual')).rejects.toMatchObject({
      kind: 'invalid_data',
    });
    await expect(recordPayment(f.deps, COMPANY, 1, input('1', { date: '2026-11-22' }), 'manual')).rejects.toMatchObject({
      kind: 'invalid_data',
    });
    await expect(recordPayment(f.deps, COMPANY, 1, input('1.005'), 'bank_statement')).rejects.toMatchObject({ kind: 'invalid_data' });
    await expect(recordPayment(f.deps, COMPANY, 1, input('238.01'), 'manual')).rejects.toMatchObject({
      options: { code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', extra: { open_amount: 238 } },
    });
    expect(f.messages).toEqual([]);
    expect(f.payments.size).toBe(0);
  });

  it('pays to zero (PAID, from SENT), then a reversal returns the invoice to SENT with its events', async () => {
    const f = fakeDeps();
    finalized(f);
    await recordPayment(f.deps, COMPANY, 1, input('238'), 'manual');
    expect(f.invoices.get(1)).toMatchObject({ status: 'PAID', paidFromStatus: 'SENT', paidDate: '2026-11-20' });
    const reversed = await reversePayment(f.deps, COMPANY, 1, 1);
    expect(reversed.reversedAt?.toISOString()).toBe('2026-11-20T09:30:00.000Z');
    const inv = f.invoices.get(1)!;
    expect(inv).toMatchObject({ status: 'SENT', paidCents: 0 });
    expect(inv.paidDate).toBeUndefined();
    expect(inv.paidFromStatus).toBeUndefined();
    expect(f.messages.map((m) => [m.type, (m.data as { status?: string }).status])).toEqual([
      ['invoice.status-changed.v1', 'PAID'],
      ['invoice.payment-recorded.v1', undefined],
      ['invoice.payment-reversed.v1', undefined],
      ['invoice.status-changed.v1', 'SENT'],
    ]);
    // again: nothing changes twice
    await reversePayment(f.deps, COMPANY, 1, 1);
    expect(f.messages).toHaveLength(4);
  });

  it('a reversal of an invoice paid while OPEN returns it to OPEN without a status event (the event knows no OPEN)', async () => {
    const f = fakeDeps();
    finalized(f, { status: 'OPEN' });
    await recordPayment(f.deps, COMPANY, 1, input('238'), 'manual');
    await reversePayment(f.deps, COMPANY, 1, 1);
    expect(f.invoices.get(1)).toMatchObject({ status: 'OPEN' });
    expect(f.messages.map((m) => m.type).at(-1)).toBe('invoice.payment-reversed.v1');
  });

  it('refuses to reverse an exported payment; another invoice’s or company’s payment is not found', async () => {
    const f = fakeDeps();
    finalized(f);
    await recordPayment(f.deps, COMPANY, 1, input('10'), 'manual');
    expect(await markPaymentsExported(f.deps, COMPANY, [1, 99], 'job-1')).toBe(1);
    expect(await markPaymentsExported(f.deps, COMPANY, [1], 'job-2')).toBe(0); // a redelivery changes nothing
    expect(f.payments.get(1)).toMatchObject({ exportJobId: 'job-1' });
    await expect(reversePayment(f.deps, COMPANY, 1, 1)).rejects.toMatchObject({ options: { code: 'PAYMENT_EXPORTED' } });
    await expect(reversePayment(f.deps, COMPANY, 2, 1)).rejects.toMatchObject({ kind: 'not_found' });
    expect(f.invoices.get(1)).toMatchObject({ paidCents: 1000 });
  });

  it('counts finalized credit notes: the open amount, the overpayment guard, a reversal, bank matching and reminders', async () => {
    const f = fakeDeps();
    // 238.00 gross, 38.00 credited by a finalized credit note: 200.00 open
    const inv = finalized(f, { creditSettledCents: 3800, dueDate: '2026-11-15', snapshot: {} as never });
    expect(openAmountOf(inv)).toBe('200.00');
    expect(notRemindable(inv, '2026-11-20')).toBeUndefined();
    expect(openInvoiceOf({ ...inv, snapshot: undefined }).openCents).toBe(20000);
    await expect(recordPayment(f.deps, COMPANY, 1, input('238'), 'manual')).rejects.toMatchObject({
      options: { code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', extra: { open_amount: 200 } },
    });
    const r = await recordPayment(f.deps, COMPANY, 1, input('200'), 'manual');
    expect(r).toMatchObject({ openAmount: 0, paidInFull: true });
    expect(f.invoices.get(1)).toMatchObject({ status: 'PAID', paidCents: 20000, creditSettledCents: 3800 });
    await reversePayment(f.deps, COMPANY, 1, r.payment.id); // the refused attempt took an id too
    expect(f.invoices.get(1)).toMatchObject({ status: 'SENT', paidCents: 0 });
    expect(f.messages.find((m) => m.type === 'invoice.payment-reversed.v1')?.data).toMatchObject({ openAmount: '200.00' });
  });
});
