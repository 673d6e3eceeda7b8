import { asCompanyId } from '@inv/contracts';
import { cancelInvoice } from './cancel-invoice';
import { COMPANY, fakeDeps, NOW, storedDraft } from '../../testing/fake-deps';

const OTHER = asCompanyId('cmp_other');

describe('cancelInvoice', () => {
  it('cancels a draft, which keeps its number; cancelling again is harmless', async () => {
    const f = fakeDeps();
    storedDraft(f, 1);
    await cancelInvoice(f.deps, COMPANY, 1);
    expect(f.invoices.get(1)).toMatchObject({ status: 'CANCELLED', number: 'RE-2026-00001', cancelledAt: NOW });
    await expect(cancelInvoice(f.deps, COMPANY, 1)).resolves.toBeUndefined();
    // one audit event, handed to the relay with the cancellation (none for the harmless repeat)
    expect(f.messages).toEqual([
      expect.objectContaining({ type: 'invoice.changed.v1', data: { invoiceId: 1, action: 'cancelled', fields: ['status'] } }),
    ]);
  });

  it('refuses a finalized invoice or one being finalized (409: corrected with a credit note)', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'OPEN' });
    storedDraft(f, 2, { finalizingJobId: 'job-1' });
    await expect(cancelInvoice(f.deps, COMPANY, 1)).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'INVOICE_ALREADY_FINALIZED' },
    });
    await expect(cancelInvoice(f.deps, COMPANY, 2)).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'INVOICE_ALREADY_FINALIZED' },
    });
    expect([f.invoices.get(1)!.status, f.invoices.get(2)!.status]).toEqual(['OPEN', 'DRAFT']);
    expect(f.messages).toEqual([]);
  });

  it('answers 404 for another company’s invoice and leaves it alone', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { companyId: OTHER });
    await expect(cancelInvoice(f.deps, COMPANY, 1)).rejects.toMatchObject({ kind: 'not_found' });
    expect(f.invoices.get(1)!.status).toBe('DRAFT');
  });
});
