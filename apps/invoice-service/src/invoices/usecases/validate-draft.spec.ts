import { InvoiceDraftCheck } from '@inv/contracts';
import { billingSnapshot, COMPANY, fakeDeps } from '../../testing/fake-deps';
import { validateDraft } from './validate-draft';

const check = (body: unknown) => InvoiceDraftCheck.parse(body);
const rent = { title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: 0.19 };
const findings = (r: { errors: { field: string; rule: string }[] }) => r.errors.map((e) => `${e.field}: ${e.rule}`);

describe('validateDraft (POST /invoice/validate)', () => {
  it('answers what finalization would refuse, with the same findings, and stores nothing', async () => {
    const f = fakeDeps();
    const result = await validateDraft(f.deps, COMPANY, check({ customer_id: 1, invoice_format: 'XRECHNUNG', positions: [rent] }));
    expect(result.valid).toBe(false);
    expect(findings(result)).toEqual(['buyerReference: BR-DE-15', 'buyer.electronicAddress: PEPPOL-EN16931-R010']);
    // no draft, no number, no position id, no event
    expect(f.invoices.size).toBe(0);
    expect(f.messages).toEqual([]);
    expect(await f.deps.counters.next('probe')).toBe(1);
  });

  it("takes the customer's buyer reference as creation does, and passes a template that would finalize", async () => {
    const f = fakeDeps({
      'customer.billing-snapshot.v1': () => ({
        ...billingSnapshot,
        buyerReference: '04011000-12345-03',
        buyer: { ...billingSnapshot.buyer!, electronicAddress: { scheme: 'EM', value: 'ap@buyer.example' } },
      }),
    });
    const result = await validateDraft(
      f.deps,
      COMPANY,
      check({
        customer_id: 1,
        invoice_format: 'XRECHNUNG',
        benefit_period_start: '2026-12-01',
        benefit_period_end: '2026-12-31',
        positions: [rent],
      }),
    );
    expect(result).toMatchObject({ valid: true, errors: [] });
    expect(result.snapshot.buyerReference).toBe('04011000-12345-03');
  });

  it('reports an unknown customer and no positions as findings', async () => {
    const f = fakeDeps();
    const result = await validateDraft(f.deps, COMPANY, check({ customer_id: 99, positions: [] }));
    expect(findings(result)).toEqual(expect.arrayContaining(['customer_id: CUSTOMER_EXISTS', 'positions: AT_LEAST_ONE_POSITION']));
  });

  it("names a position's own problem by its index (400), as adding it would refuse it", async () => {
    const f = fakeDeps();
    const refused = await validateDraft(
      f.deps,
      COMPANY,
      check({ customer_id: 1, positions: [rent, { ...rent, product_id: 5, title: undefined }] }),
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      kind: 'invalid_data',
      options: { errors: [expect.objectContaining({ path: 'positions[1].product_id' })] },
    });
    const tooBig = await validateDraft(
      f.deps,
      COMPANY,
      check({ customer_id: 1, positions: [{ ...rent, discount_type: 'FIXED_AMOUNT', discount_value: 5000 }] }),
    ).catch((e: unknown) => e);
    expect(tooBig).toMatchObject({ kind: 'invalid_data' });
  });
});
