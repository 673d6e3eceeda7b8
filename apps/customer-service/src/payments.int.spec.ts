import { randomUUID } from 'node:crypto';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { testMongo } from '@inv/testing';
import { createCustomerService, eventually, http, testBus, testConfig, testPrefixes, type CustomerService } from './testing/harness';

/**
 * Payments in the customer ledger, fed by invoice.payment-recorded / -reversed events from a second bus (playing
 * invoice-service): partial payments, Skonto as its own movement, a reversal that overtakes its payment, redelivery.
 */
describe('customer-service ledger: payments', () => {
  const prefixes = testPrefixes();
  const company = 'company-payments';
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
    customerId = (await call('POST', '/customer/', { body: { organization_name: 'Zahler GmbH', email: 'ap@zahler.example' } })).body.id;
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    await svc?.runtime.bus.deleteAll();
    await peer?.stop();
    await peer?.deleteAll();
    await mongo?.stop();
  }, 30_000);

  const finalized = (invoiceId: number, totalGross: string) => ({
    invoiceId,
    number: `RE-2026-${String(invoiceId).padStart(5, '0')}`,
    typeCode: '380' as const,
    customerId,
    invoiceDate: '2026-02-01',
    dueDate: '2026-02-15',
    currency: 'EUR',
    totalNet: '100.00',
    totalVat: '19.00',
    totalGross,
    reservationId: `r-${invoiceId}`,
  });
  const recorded = (invoiceId: number, paymentId: number, amount: string, date: string, extra: Record<string, unknown> = {}) => ({
    invoiceId,
    customerId,
    number: `RE-2026-${String(invoiceId).padStart(5, '0')}`,
    paymentId,
    amount,
    date,
    source: 'manual' as const,
    openAmount: '0.00',
    paidInFull: false,
    ...extra,
  });
  const overview = async () => (await call('GET', `/customer/${customerId}/financial-overview`)).body;
  const statement = async () => (await call('GET', `/customer/${customerId}/statement?from=2026-01-01&to=2026-12-31`)).body;
  const processed = () => svc.runtime.conn.collection('processed_events').countDocuments();

  it('a partial payment counts in the overview and shows as a payment movement', async () => {
    await peer.publishEvent('invoice.finalized.v1', company, finalized(1, '119.00'));
    const id = randomUUID();
    const payment = recorded(1, 1, '50.00', '2026-02-10', { openAmount: '69.00' });
    await peer.publishEvent('invoice.payment-recorded.v1', company, payment, { id });
    await peer.publishEvent('invoice.payment-recorded.v1', company, payment, { id }); // redelivery
    await peer.publishEvent('invoice.payment-recorded.v1', company, payment); // the same payment under a new envelope
    await eventually(async () => ((await processed()) >= 3 ? true : undefined));
    const o = await eventually(async () => {
      const v = await overview();
      return v.paid.total === 50 ? v : undefined;
    });
    expect(o).toMatchObject({ outstanding: { total: 69, count: 1 }, paid: { total: 50, count: 1 }, balance: 69 });
    expect((await statement()).entries).toEqual([
      { date: '2026-02-01', document_number: 'RE-2026-00001', type: 'invoice', debit: 119, credit: null, balance: 119 },
      { date: '2026-02-10', document_number: 'RE-2026-00001', type: 'payment', debit: null, credit: 50, balance: 69 },
    ]);
  });

  it('the rest paid with Skonto (and a PAID status) settles the invoice; Skonto is a discount movement', async () => {
    await peer.publishEvent(
      'invoice.payment-recorded.v1',
      company,
      recorded(1, 2, '66.62', '2026-02-12', { discount: '2.38', paidInFull: true, openAmount: '0.00' }),
    );
    await peer.publishEvent('invoice.status-changed.v1', company, { invoiceId: 1, customerId, status: 'PAID', paidDate: '2026-02-12' });
    const o = await eventually(async () => {
      const v = await overview();
      return v.outstanding.count === 0 ? v : undefined;
    });
    expect(o).toMatchObject({ paid: { total: 116.62, count: 1 }, balance: 0 });
    expect((await statement()).entries.slice(2)).toEqual([
      { date: '2026-02-12', document_number: 'RE-2026-00001', type: 'payment', debit: null, credit: 66.62, balance: 2.38 },
      { date: '2026-02-12', document_number: 'RE-2026-00001', type: 'discount', debit: null, credit: 2.38, balance: 0 },
    ]);
  });

  it('a reversal that arrives before its payment still ends with the payment undone', async () => {
    await peer.publishEvent('invoice.finalized.v1', company, finalized(2, '100.00'));
    await peer.publishEvent('invoice.payment-reversed.v1', company, {
      invoiceId: 2,
      customerId,
      number: 'RE-2026-00002',
      paymentId: 3,
      amount: '100.00',
      date: '2026-02-20',
      reversedAt: '2026-02-21T10:00:00.000Z',
      openAmount: '100.00',
    });
    await eventually(async () =>
      (await svc.runtime.conn.collection('ledger_invoices').findOne({ invoiceId: 2, 'payments.paymentId': 3 })) ? true : undefined,
    );
    const before = await processed();
    await peer.publishEvent('invoice.payment-recorded.v1', company, recorded(2, 3, '100.00', '2026-02-20', { paidInFull: true }));
    await eventually(async () => ((await processed()) > before ? true : undefined));
    expect(await overview()).toMatchObject({ outstanding: { total: 100, count: 1 }, paid: { total: 116.62, count: 1 }, balance: 100 });
    expect((await statement()).entries.filter((e: { document_number: string }) => e.document_number === 'RE-2026-00002')).toEqual([
      { date: '2026-02-01', document_number: 'RE-2026-00002', type: 'invoice', debit: 100, credit: null, balance: 219 },
    ]);
  });

  it('a reversal after its payment removes the payment from the statement', async () => {
    await peer.publishEvent('invoice.payment-recorded.v1', company, recorded(2, 4, '40.00', '2026-03-01', { openAmount: '60.00' }));
    await eventually(async () => ((await overview()).paid.total === 156.62 ? true : undefined));
    await peer.publishEvent('invoice.payment-reversed.v1', company, {
      invoiceId: 2,
      customerId,
      number: 'RE-2026-00002',
      paymentId: 4,
      amount: '40.00',
      date: '2026-03-01',
      reversedAt: '2026-03-02T08:00:00.000Z',
      openAmount: '100.00',
    });
    const o = await eventually(async () => {
      const v = await overview();
      return v.paid.total === 116.62 ? v : undefined;
    });
    expect(o).toMatchObject({ outstanding: { total: 100, count: 1 }, balance: 100 });
    expect((await statement()).entries.map((e: { type: string }) => e.type)).toEqual([
      'invoice',
      'invoice',
      'payment',
      'payment',
      'discount',
    ]);
  });
});
