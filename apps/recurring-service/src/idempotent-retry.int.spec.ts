import { SERVICES } from '@inv/runtime';
import { crashRetryHarness } from '@inv/runtime/testing';
import { TEST_IDENTITY_KEY } from '@inv/testing';
import { startFakeInvoiceService, type FakeInvoiceService } from './testing/fake-invoice-service';

jest.setTimeout(240_000);

/**
 * The documented retry path for recurring-service: POST /recurring-invoices/ sent with an Idempotency-Key whose
 * service dies right after its commit and that the client sends again with the same key answers the first schedule;
 * one schedule exists.
 */
describe('idempotent retries across a crash between commit and answer (recurring-service)', () => {
  const company = 'cmp_idemrecurring';
  // the template is checked by invoice-service's POST /invoice/validate before the schedule is saved: a stand-in
  // listens on invoice-service's port (the launcher gives the service its peers' URLs)
  let invoices: FakeInvoiceService | undefined;
  const h = crashRetryHarness({
    service: 'recurring',
    company,
    setup: async (_prefix, portOffset) => {
      invoices = await startFakeInvoiceService(TEST_IDENTITY_KEY, SERVICES.invoice.port + portOffset);
      return {};
    },
    teardown: () => invoices?.close(),
  });

  it('creates a schedule once; a third send replays the kept answer', async () => {
    const body = {
      name: 'Rent once',
      template: {
        customer_id: 7,
        positions: [{ title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: '0.19' }],
      },
      schedule: { interval: 'monthly', day_of_month: 1, start_date: `${new Date().getUTCFullYear() + 1}-01-01` },
    };
    const retry = await h.crashThenRetry('/recurring-invoices/', body, 'schedule-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toMatchObject({ id: expect.any(Number), name: 'Rent once', status: 'active' });
    expect((await h.stored('invoicing_recurring', 'schedules', { companyId: company })).map((s) => s.id)).toEqual([retry.body.id]);
    expect(await h.idempotentPost('/recurring-invoices/', body, 'schedule-1')).toEqual(retry);
  });
});
