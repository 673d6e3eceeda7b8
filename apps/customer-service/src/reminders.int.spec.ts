import { randomUUID } from 'node:crypto';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { testMongo } from '@inv/testing';
import { createCustomerService, eventually, http, testBus, testConfig, testPrefixes, type CustomerService } from './testing/harness';

/**
 * Reminders in the customer ledger, fed by invoice.reminder-issued events from a second bus (playing invoice-service):
 * a reminder that overtakes the invoice's finalized event, redelivery, fees, the § 288 (5) BGB flat fee and interest
 * booked only by its increase.
 */
describe('customer-service ledger: reminders', () => {
  const prefixes = testPrefixes();
  const company = 'company-reminders';
  let svc: CustomerService;
  let peer: Bus<Messages>;
  let call: ReturnType<typeof http>;
  let customerId: number;
  let mongo: Awaited<ReturnType<typeof testMongo>>;

  beforeAll(async () => {
    mongo = await testMongo();
    svc = await createCustomerService(testConfig(prefixes, { MONGO_URL: mongo.uri }));
    const { url } = await svc.start();
    peer = testBus(prefixes.BUS_PREFIX);
    await peer.start();
    call = http(url, company);
    customerId = (await call('POST', '/customer/', { body: { organization_name: 'Säumig GmbH', email: 'ap@saeumig.example' } })).body.id;
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    await svc?.runtime.bus.deleteAll();
    await peer?.stop();
    await peer?.deleteAll();
    await mongo?.stop();
  }, 30_000);

  const number = 'RE-2026-00001';
  const finalized = () => ({
    invoiceId: 1,
    number,
    typeCode: '380' as const,
    customerId,
    invoiceDate: '2026-02-01',
    dueDate: '2026-02-15',
    currency: 'EUR',
    totalNet: '100.00',
    totalVat: '19.00',
    totalGross: '119.00',
    reservationId: 'r-1',
  });
  const reminder = (
    reminderId: number,
    level: number,
    date: string,
    fee: string,
    interest: string,
    extra: Record<string, unknown> = {},
  ) => ({
    invoiceId: 1,
    customerId,
    number,
    reminderId,
    level,
    date,
    fee,
    interest,
    openAmount: '119.00',
    emailed: true,
    ...extra,
  });
  const overview = async () => (await call('GET', `/customer/${customerId}/financial-overview`)).body;
  const statement = async () => (await call('GET', `/customer/${customerId}/statement?from=2026-01-01&to=2026-12-31`)).body;
  const processed = () => svc.runtime.conn.collection('processed_events').countDocuments();

  it('a level-1 reminder without fee and interest that overtakes the finalized event adds no movement', async () => {
    await peer.publishEvent('invoice.reminder-issued.v1', company, reminder(1, 1, '2026-02-22', '0.00', '0.00'));
    await eventually(async () => ((await processed()) >= 1 ? true : undefined));
    // not shown before the invoice is finalized
    expect((await statement()).entries).toEqual([]);
    await peer.publishEvent('invoice.finalized.v1', company, finalized());
    const s = await eventually(async () => {
      const v = await statement();
      return v.entries.length > 0 ? v : undefined;
    });
    expect(s.entries).toEqual([{ date: '2026-02-01', document_number: number, type: 'invoice', debit: 119, credit: null, balance: 119 }]);
  });

  it('the second reminder books its fee, the flat fee and the interest; redeliveries change nothing', async () => {
    const id = randomUUID();
    const second = reminder(2, 2, '2026-03-08', '5.00', '0.80', { flatFee: '40.00' });
    const before = await processed();
    await peer.publishEvent('invoice.reminder-issued.v1', company, second, { id });
    await peer.publishEvent('invoice.reminder-issued.v1', company, second, { id }); // redelivery
    await peer.publishEvent('invoice.reminder-issued.v1', company, second); // the same reminder under a new envelope
    await eventually(async () => ((await processed()) >= before + 2 ? true : undefined));
    const s = await eventually(async () => {
      const v = await statement();
      return v.entries.length === 4 ? v : undefined;
    });
    expect(s.entries.slice(1)).toEqual([
      { date: '2026-03-08', document_number: number, type: 'reminder_fee', debit: 5, credit: null, balance: 124 },
      { date: '2026-03-08', document_number: number, type: 'reminder_fee', debit: 40, credit: null, balance: 164 },
      { date: '2026-03-08', document_number: number, type: 'interest', debit: 0.8, credit: null, balance: 164.8 },
    ]);
    expect(s.closing_balance).toBe(164.8);
    // outstanding is the open invoice amount only; the balance carries the fees and interest
    expect(await overview()).toMatchObject({ outstanding: { total: 119, count: 1 }, overdue: { total: 119, count: 1 }, balance: 164.8 });
  });

  it('the third reminder books only the interest added since the second', async () => {
    await peer.publishEvent('invoice.reminder-issued.v1', company, reminder(3, 3, '2026-03-22', '10.00', '1.35'));
    const s = await eventually(async () => {
      const v = await statement();
      return v.entries.length === 6 ? v : undefined;
    });
    expect(s.entries.slice(4)).toEqual([
      { date: '2026-03-22', document_number: number, type: 'reminder_fee', debit: 10, credit: null, balance: 174.8 },
      { date: '2026-03-22', document_number: number, type: 'interest', debit: 0.55, credit: null, balance: 175.35 },
    ]);
    expect(await overview()).toMatchObject({ outstanding: { total: 119, count: 1 }, balance: 175.35 });
  });
});
