import { waitFor } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(300_000);

/** The first day of the month `back` months before today (UTC), as YYYY-MM-DD. */
const monthStart = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 10);
};
const monthEnd = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back + 1, 0)).toISOString().slice(0, 10);
};

/**
 * Recurring invoices against the real invoice-service (each service its own process): a schedule that started
 * two months ago catches up three monthly runs, each a finalized invoice for its month, issued once, oldest first.
 */
describe('e2e: recurring invoices through the real invoice API', () => {
  let system: System;
  let base: string;
  let apiKey: string;
  const api = apiClient(
    () => base,
    () => apiKey,
  );

  beforeAll(async () => {
    system = await startSystem({
      kind: 'e2e-rec',
      services: ['account', 'customer', 'invoice', 'document', 'quota', 'recurring', 'gateway'],
      env: { RECURRING_TICK_MS: '500', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
    ({ base, apiKey } = system);
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('catches up the missed months with finalized invoices, each period once', async () => {
    const customer = await api('POST', '/customer/', {
      organization_name: 'Mieter GmbH',
      email: 'ap@mieter.example',
      contact_type: 'B2B',
      language: 'German',
      is_active: true,
    });
    expect(customer.status).toBe(201);
    expect(
      (
        await api('POST', `/customer/${customer.body.id}/addresses`, {
          address_line_1: 'Hauptstraße 5',
          city: 'München',
          postal_code: '80331',
          country_code: 'DE',
          is_default: true,
        })
      ).status,
    ).toBe(201);

    const created = await api('POST', '/recurring-invoices/', {
      name: 'Office rent',
      template: {
        customer_id: customer.body.id,
        invoice_format: 'ZUGFERD',
        note: 'Rent as agreed.',
        meta: { contract: 'L-7' },
        positions: [
          { title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: 0.19 },
          { title: 'Parking', quantity: '2', unit_id: 'C62', unit_net_amount: '45.50', tax_rate: '0.19' },
        ],
      },
      schedule: { interval: 'monthly', day_of_month: 1, start_date: monthStart(2) },
      auto_finalize: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 1, next_run_date: monthStart(2), status: 'active' });

    const done = await waitFor(
      async () => {
        const got = (await api('GET', '/recurring-invoices/1')).body;
        if (got.status === 'paused') throw new Error(`paused: ${JSON.stringify(got.last_run)}`);
        return got.next_run_date === monthStart(-1) && got;
      },
      { timeoutMs: 180_000, intervalMs: 500, what: 'three runs' },
    );
    expect(done.last_run).toMatchObject({ date: monthStart(0), period_end: monthEnd(0), outcome: 'finalized', error: null });

    const runs = (await api('GET', '/recurring-invoices/1/runs')).body.runs;
    expect(runs.map((r: { date: string; outcome: string }) => [r.date, r.outcome])).toEqual([
      [monthStart(0), 'finalized'],
      [monthStart(1), 'finalized'],
      [monthStart(2), 'finalized'],
    ]);
    const invoices = (await api('GET', `/invoice/?customer_id=${customer.body.id}&sort=created`)).body.invoices;
    expect(invoices.map((i: Record<string, unknown>) => [i.id, i.status, i.benefit_period_start, i.benefit_period_end])).toEqual(
      [2, 1, 0].map((back, k) => [runs[2 - k].invoice_id, 'OPEN', monthStart(back), monthEnd(back)]),
    );
    expect(invoices[0].meta).toEqual({ contract: 'L-7', recurring_run: `1:${monthStart(2)}` });
    const first = (await api('GET', `/invoice/${invoices[0].id}`)).body;
    expect(first.positions).toHaveLength(2);
    expect(first).toMatchObject({ net_amount: 1291, gross_amount: 1536.29 });
  });
});
