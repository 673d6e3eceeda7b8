import { updateInvoice } from './update-invoice';
import { COMPANY, fakeDeps, NOW, storedDraft } from '../../testing/fake-deps';

describe('updateInvoice', () => {
  it('changes a draft and hands over one audit event naming the fields given, never their values', async () => {
    const f = fakeDeps();
    storedDraft(f, 1);
    await updateInvoice(f.deps, COMPANY, 1, { note: 'Thank you', buyer_reference: 'PO-7' });
    expect(f.invoices.get(1)).toMatchObject({ note: 'Thank you', buyerReference: 'PO-7', updatedAt: NOW });
    expect(f.messages).toEqual([
      expect.objectContaining({
        type: 'invoice.changed.v1',
        companyId: COMPANY,
        data: { invoiceId: 1, action: 'updated', fields: ['note', 'buyer_reference'] },
      }),
    ]);
  });

  it('refuses an invoice that is no longer a draft (409) and records nothing', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'OPEN' });
    storedDraft(f, 2, { finalizingJobId: 'job-1' });
    for (const id of [1, 2]) await expect(updateInvoice(f.deps, COMPANY, id, { note: 'late' })).rejects.toMatchObject({ kind: 'conflict' });
    expect([f.invoices.get(1)!.note, f.invoices.get(2)!.note]).not.toContain('late');
    expect(f.messages).toEqual([]);
  });
});
