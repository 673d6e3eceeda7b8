import { asCompanyId, StatusUpdate } from '@inv/contracts';
import { setStatus } from './set-status';
import { COMPANY, fakeDeps, NOW, position, storedDraft } from './testing/fake-deps';

const OTHER = asCompanyId('cmp_other');

const paid = StatusUpdate.parse({
  status: 'PAID',
  paid_date: '2026-11-19',
  payment_method: 'BANK_TRANSFER',
  payment_reference: 'RE-2026-00001',
});

describe('setStatus', () => {
  it('marks an open invoice paid and announces it in the same commit, with a deterministic message id', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'OPEN', positions: [position(10)] });
    expect(await setStatus(f.deps, COMPANY, 1, paid)).toBe('PAID');
    expect(f.invoices.get(1)).toMatchObject({
      status: 'PAID',
      paidDate: '2026-11-19',
      paymentMethod: 'BANK_TRANSFER',
      paymentReference: 'RE-2026-00001',
      updatedAt: NOW,
    });
    expect(f.messages).toEqual([
      expect.objectContaining({
        kind: 'event',
        type: 'invoice.status-changed.v1',
        companyId: COMPANY,
        id: `status-${COMPANY}-1-PAID`,
        data: expect.objectContaining({ invoiceId: 1, customerId: 1, status: 'PAID', paidDate: '2026-11-19', totalGross: '238.00' }),
      }),
    ]);
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
