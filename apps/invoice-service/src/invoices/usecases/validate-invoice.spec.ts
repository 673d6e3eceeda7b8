import { billingSnapshot, COMPANY, fakeDeps, position, sellerProfile, storedDraft } from '../../testing/fake-deps';
import { presentValidation } from '../../http/presenters';
import { validateInvoice } from './validate-invoice';

/** GET /invoice/{id}/validate on a draft: the VAT rate plausibility warning and the non-EU buyer's tax number. */
describe('validateInvoice', () => {
  const validate = async (f: ReturnType<typeof fakeDeps>, id: number, issueDate = '2026-11-29') =>
    presentValidation(await validateInvoice(f.deps, (await f.deps.invoices.get(COMPANY, id))!, issueDate));

  it('a German domestic invoice at 16 % in 2026 is valid with a warning naming the rates in force', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, { positions: [position(10), position(11, { taxRate: '0.16' })] });
    const v = await validate(f, 1);
    expect(v.valid).toBe(true);
    expect(v.checks).toContain('vat_rates');
    expect(v.warnings).toEqual([
      {
        field: 'positions[11].tax_rate',
        rule: 'VAT_RATE_NOT_IN_FORCE',
        message: expect.stringContaining(
          '16 % is not a VAT rate of DE on 2026-11-29; the rates in force then are DE: 19 % (standard), 7 % (reduced)',
        ),
      },
    ]);
  });

  it('16 % and 5 % for a service period in October 2020 draw no warning', async () => {
    const f = fakeDeps();
    storedDraft(f, 1, {
      benefitPeriodStart: '2020-10-01',
      benefitPeriodEnd: '2020-10-31',
      positions: [position(10, { taxRate: '0.16' }), position(11, { taxRate: '0.05', taxTreatmentId: 'reduced' })],
    });
    expect(await validate(f, 1)).toMatchObject({ valid: true, warnings: [] });
  });

  it('a French or Italian seller at a rate its country does not have gets the warning', async () => {
    for (const [country, rate, known] of [
      ['FR', '0.19', 'FR: 20 % (standard), 10 % (reduced), 5.5 % (reduced), 2.1 % (super-reduced)'],
      ['IT', '0.21', 'IT: 22 % (standard), 10 % (reduced), 5 % (reduced), 4 % (super-reduced)'],
    ] as const) {
      const seller = {
        ...sellerProfile,
        seller: { ...sellerProfile.seller!, address: { ...sellerProfile.seller!.address, countryCode: country } },
      };
      const buyer = {
        ...billingSnapshot,
        buyer: { ...billingSnapshot.buyer!, address: { ...billingSnapshot.buyer!.address, countryCode: country } },
      };
      const f = fakeDeps({ 'account.seller-profile.v1': () => seller, 'customer.billing-snapshot.v1': () => buyer });
      storedDraft(f, 1, { positions: [position(10, { taxRate: rate })] });
      const v = await validate(f, 1);
      expect(v.warnings.map((w) => w.message)).toEqual([expect.stringContaining(known)]);
    }
  });

  it('a Norwegian buyer with its tax number (not checked at VIES) needs no VAT confirmation', async () => {
    const buyer = {
      ...billingSnapshot,
      buyer: {
        ...billingSnapshot.buyer!,
        vatId: 'NO987654325MVA',
        address: { line1: 'Karl Johans gate 1', city: 'Oslo', postalCode: '0154', countryCode: 'NO' },
      },
      vatStatus: 'not_checked' as const,
    };
    const f = fakeDeps({ 'customer.billing-snapshot.v1': () => buyer });
    storedDraft(f, 1, { positions: [position(10, { taxRate: '0', taxTreatmentId: 'export_outside_eu' })] });
    const v = await validate(f, 1);
    expect(v).toMatchObject({ valid: true, errors: [], vat_override_required: false, vat_check: { status: 'not_checked' } });
  });
});
