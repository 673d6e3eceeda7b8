import { asCompanyId, PositionCreateInput } from '@inv/contracts';
import { addPosition } from './add-position';
import { MAX_POSITIONS } from './draft-rules';
import { COMPANY, fakeDeps, position, storedDraft } from '../../testing/fake-deps';

const OTHER = asCompanyId('cmp_other');

const input = (fields: Record<string, unknown>) =>
  PositionCreateInput.parse({ title: 'Beratung', quantity: '2', unit_id: 'hur', unit_net_amount: '100', ...fields });

describe('addPosition', () => {
  it('adds a position with the default rate of its treatment and updates the gross total', async () => {
    const f = fakeDeps();
    storedDraft(f, 1);
    const { id } = await addPosition(f.deps, COMPANY, 1, input({}));
    const inv = f.invoices.get(1)!;
    expect(inv.positions).toEqual([
      expect.objectContaining({
        id,
        title: 'Beratung',
        quantity: '2',
        unitCode: 'HUR',
        unitPrice: '100',
        taxRate: '0.19',
        taxTreatmentId: 'standard',
      }),
    ]);
    expect(inv.grossCents).toBe(23800);
    await addPosition(f.deps, COMPANY, 1, input({ tax_treatment_id: 'reduced' }));
    expect(f.invoices.get(1)!.positions[1]).toMatchObject({ taxTreatmentId: 'reduced', taxRate: '0.07' });
  });

  it("takes the invoice's treatment when the position names none; an explicit rate wins", async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { taxTreatmentId: 'reverse_charge' });
    await addPosition(f.deps, COMPANY, 1, input({}));
    await addPosition(f.deps, COMPANY, 1, input({ tax_treatment_id: 'standard', tax_rate: '0.16' }));
    expect(f.invoices.get(1)!.positions.map((p) => [p.taxTreatmentId, p.taxRate])).toEqual([
      ['reverse_charge', '0'],
      ['standard', '0.16'],
    ]);
  });

  it('fills a position from a product and refuses an unknown or inactive one', async () => {
    const f = fakeDeps();
    storedDraft(f, 1);
    const products: Record<number, object> = {
      5: { _id: 5, name: 'Wartung', unitCode: 'MON', unitPrice: '249.00', taxTreatmentId: 'reduced', taxRate: '0.07', active: true },
      6: { _id: 6, name: 'Alt', unitCode: 'C62', unitPrice: '1', taxTreatmentId: 'standard', taxRate: '0.19', active: false },
    };
    (f.deps.products as any).get = async (_c: string, id: number) => products[id] ?? null;
    await addPosition(f.deps, COMPANY, 1, PositionCreateInput.parse({ product_id: 5, quantity: '1' }));
    expect(f.invoices.get(1)!.positions[0]).toMatchObject({
      title: 'Wartung',
      unitCode: 'MON',
      unitPrice: '249.00',
      taxTreatmentId: 'reduced',
      taxRate: '0.07',
      productId: 5,
    });
    await expect(addPosition(f.deps, COMPANY, 1, PositionCreateInput.parse({ product_id: 9, quantity: '1' }))).rejects.toMatchObject({
      kind: 'invalid_data',
      options: { errors: [{ path: 'product_id' }] },
    });
    await expect(addPosition(f.deps, COMPANY, 1, PositionCreateInput.parse({ product_id: 6, quantity: '1' }))).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'PRODUCT_INACTIVE' },
    });
  });

  it('changes only drafts nobody is finalizing (409), and not another company’s invoice (404)', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { status: 'OPEN' });
    storedDraft(f, 2, { finalizingJobId: 'job-1' });
    storedDraft(f, 3, { companyId: OTHER });
    await expect(addPosition(f.deps, COMPANY, 1, input({}))).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'INVOICE_NOT_DRAFT' },
    });
    await expect(addPosition(f.deps, COMPANY, 2, input({}))).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'INVOICE_NOT_DRAFT' },
    });
    await expect(addPosition(f.deps, COMPANY, 3, input({}))).rejects.toMatchObject({ kind: 'not_found' });
    expect(f.invoices.get(3)!.positions).toEqual([]);
  });

  it('refuses a fixed discount above the line amount and a position beyond the cap (400)', async () => {
    const f = fakeDeps();
    storedDraft(f, 1);
    await expect(addPosition(f.deps, COMPANY, 1, input({ discount_type: 'FIXED_AMOUNT', discount_value: '500' }))).rejects.toMatchObject({
      kind: 'invalid_data',
    });
    storedDraft(f, 2, { positions: Array.from({ length: MAX_POSITIONS }, (_, i) => position(i + 1)) });
    await expect(addPosition(f.deps, COMPANY, 2, input({}))).rejects.toMatchObject({ kind: 'invalid_data' });
    expect(f.invoices.get(1)!.positions).toEqual([]);
  });

  it('refuses to overwrite a change made meanwhile (409 CONCURRENT_MODIFICATION)', async () => {
    const f = fakeDeps();
    storedDraft(f, 1);
    f.interfere();
    await expect(addPosition(f.deps, COMPANY, 1, input({}))).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'CONCURRENT_MODIFICATION' },
    });
    expect(f.invoices.get(1)!.positions).toEqual([]);
  });
});
