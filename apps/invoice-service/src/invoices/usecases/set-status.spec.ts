import { asCompanyId, StatusUpdate } from '@inv/contracts';
import { setStatus } from './set-status';
import { COMPANY, fakeDeps, NOW, position, storedDraft } from '../../testing/fake-deps';

const OTHER = asCompanyId('cmp_other');

const paid = StatusUpdate.parse({
  status: 'PAID',
  paid_date: '2026-11-19',
  payment_method: 'BANK_TRANSFER',
  payment_reference: 'RE-2026-00001',
});

describe('setStatus', () => {
  it('marks an open invoice paid by one payment of the open amount (source status), announced in the same commit', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'OPEN', positions: [position(10)], grossCents: 23800 });
    expect(await setStatus(f.deps, COMPANY, 1, paid)).toBe('PAID');
    expect(f.invoices.get(1)).toMatchObject({
      status: 'PAID',
      paidDate: '2026-11-19',
      paymentMethod: 'BANK_TRANSFER',
      paymentReference: 'RE-2026-00001',
      paidCents: 23800,
      paidFromStatus: 'OPEN',
      updatedAt: NOW,
    });
    expect(f.payments.get(1)).toMatchObject({ invoiceId: 1, amount: '238.00', discount: '0.00', source: 'status' });
    expect(f.messages).toEqual([
      expect.objectContaining({
        kind: 'event',
        type: 'invoice.status-changed.v1',
        companyId: COMPANY,
        // one per payment that closed the invoice: a reversal and a new payment announce PAID again
        id: `status-${COMPANY}-1-PAID-1`,
        data: expect.objectContaining({ invoiceId: 1, customerId: 1, status: 'PAID', paidDate: '2026-11-19', totalGross: '238.00' }),
      }),
      expect.objectContaining({
        type: 'invoice.payment-recorded.v1',
        id: `payment-recorded-${COMPANY}-1`,
        data: expect.objectContaining({
          invoiceId: 1,
          paymentId: 1,
          amount: '238.00',
          openAmount: '0.00',
          paidInFull: true,
          source: 'status',
        }),
      }),
    ]);
  });

  it('PAID after a partial payment pays the rest', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'SENT', positions: [position(10)], grossCents: 23800, paidCents: 3800 });
    await setStatus(f.deps, COMPANY, 1, paid);
    expect(f.payments.get(1)).toMatchObject({ amount: '200.00' });
    expect(f.invoices.get(1)).toMatchObject({ status: 'PAID', paidCents: 23800, paidFromStatus: 'SENT' });
  });

  it('an invoice of 0.00 just moves to PAID (nothing to pay)', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'OPEN', positions: [], grossCents: 0 });
    await setStatus(f.deps, COMPANY, 1, paid);
    expect(f.payments.size).toBe(0);
    expect(f.messages).toEqual([expect.objectContaining({ type: 'invoice.status-changed.v1', id: `status-${COMPANY}-1-PAID` })]);
  });

  it('repeating the status an invoice has is harmless: no write, no message', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'SENT' });
    expect(await setStatus(f.deps, COMPANY, 1, StatusUpdate.parse({ status: 'SENT' }))).toBe('SENT');
    expect(f.messages).toEqual([]);
  });

  it('refuses moves the lifecycle does not have (409) and another company’s invoice (404)', async () => {
    const f = fakeDeps();
    storedDraft(f, 1);
    storedDraft(f, 2, { status: 'PAID' });
    storedDraft(f, 3, { status: 'OPEN', companyId: OTHER });
    await expect(setStatus(f.deps, COMPANY, 1, paid)).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'INVALID_STATUS_TRANSITION' },
    });
    await expect(setStatus(f.deps, COMPANY, 2, StatusUpdate.parse({ status: 'SENT' }))).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'INVALID_STATUS_TRANSITION' },
    });
    await expect(setStatus(f.deps, COMPANY, 3, paid)).rejects.toMatchObject({ kind: 'not_found' });
    expect(f.messages).toEqual([]);
  });

  it('a status changed meanwhile is a conflict and announces nothing', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'OPEN' });
    const moveStatus = f.deps.invoices.moveStatus;
    f.deps.invoices.moveStatus = async (...args) => {
      f.invoices.get(1)!.status = 'SENT'; // another request moved it first
      return moveStatus(...args);
    };
    await expect(setStatus(f.deps, COMPANY, 1, paid)).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'CONCURRENT_MODIFICATION' },
    });
    expect(f.messages).toEqual([]);
  });
});
