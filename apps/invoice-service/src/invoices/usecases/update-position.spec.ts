import { asCompanyId, PositionUpdate } from '@inv/contracts';
import { updatePosition } from './update-position';
import { COMPANY, fakeDeps, position, storedDraft } from '../../testing/fake-deps';

const OTHER = asCompanyId('cmp_other');

describe('updatePosition', () => {
  it('changes only the fields sent and recomputes the gross total', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { positions: [position(10), position(11)] });
    await updatePosition(f.deps, COMPANY, 1, 11, PositionUpdate.parse({ quantity: '3', unit_id: 'day' }));
    const inv = f.invoices.get(1)!;
    expect(inv.positions[0]).toEqual(position(10));
    expect(inv.positions[1]).toEqual({ ...position(11), quantity: '3', unitCode: 'DAY' });
    expect(inv.grossCents).toBe(59500); // (200 + 300) * 1.19
  });

  it('a new treatment brings its default rate unless a rate is sent', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { positions: [position(10), position(11)] });
    await updatePosition(f.deps, COMPANY, 1, 10, PositionUpdate.parse({ tax_treatment_id: 'intra_community' }));
    await updatePosition(f.deps, COMPANY, 1, 11, PositionUpdate.parse({ tax_treatment_id: 'reduced', tax_rate: '0.05' }));
    expect(f.invoices.get(1)!.positions.map((p) => [p.taxTreatmentId, p.taxRate])).toEqual([
      ['intra_community', '0'],
      ['reduced', '0.05'],
    ]);
  });

  it('answers 404 for an unknown position or another company’s invoice, 409 for a finalized one', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { positions: [position(10)] });
    storedDraft(f, 2, { companyId: OTHER, positions: [position(20)] });
    storedDraft(f, 3, { status: 'OPEN', positions: [position(30)] });
    await expect(updatePosition(f.deps, COMPANY, 1, 99, PositionUpdate.parse({ title: 'x' }))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(updatePosition(f.deps, COMPANY, 2, 20, PositionUpdate.parse({ title: 'x' }))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(updatePosition(f.deps, COMPANY, 3, 30, PositionUpdate.parse({ title: 'x' }))).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'INVOICE_NOT_DRAFT' },
    });
    expect(f.invoices.get(2)!.positions[0].title).toBe('Position 20');
  });

  it('replaces a client line amount that disagrees with quantity x price (a warning, not a 400) and refuses a change made meanwhile (409)', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { positions: [position(10)] });
    const warnings = await updatePosition(f.deps, COMPANY, 1, 10, PositionUpdate.parse({ quantity: '3', single_net_amount: '250' }));
    expect(warnings).toEqual([
      {
        field: 'single_net_amount',
        code: 'DERIVED_VALUE_REPLACED',
        message: expect.stringMatching(/^single_net_amount 250 replaced by quantity x unit_net_amount = /),
      },
    ]);
    expect(f.invoices.get(1)!.positions[0].quantity).toBe('3');
    expect(await updatePosition(f.deps, COMPANY, 1, 10, PositionUpdate.parse({ quantity: '2', single_net_amount: '250' }))).toHaveLength(1);
    f.interfere();
    await expect(updatePosition(f.deps, COMPANY, 1, 10, PositionUpdate.parse({ quantity: '3' }))).rejects.toMatchObject({
      kind: 'conflict',
      options: { code: 'CONCURRENT_MODIFICATION' },
    });
    expect(f.invoices.get(1)!.positions[0].quantity).toBe('2');
  });
});
