import type { Bus } from '@inv/bus';
import { asCompanyId, type Messages } from '@inv/contracts';
import { deleteBrokerObjects, deleteRedisKeys, peerBus, serviceCaller, testEnv, testStores, uniquePrefix, waitFor } from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';

jest.setTimeout(90_000);

type Event = { type: string; id: string; data: Record<string, unknown> };

/**
 * Payments on invoices (invoice-service against the real broker and the embedded MongoDB; account, customer, quota
 * and document service played by a peer bus): partial payments, PAID at zero, overpayment, two payments at once,
 * the PAID shortcut, Skonto, reversal and the export that forbids it, and bad input.
 */
describe('payments (invoice-service)', () => {
  const prefix = uniquePrefix();
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const company = asCompanyId('cmp_payments');
  const events: Event[] = [];
  const today = () => new Date().toISOString().slice(0, 10);
  const daysFromToday = (n: number) => {
    const d = new Date(`${today()}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  };

  const call = serviceCaller(() => url, company);

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    peer.serveRpc('account.seller-profile.v1', async () => ({
      found: true,
      seller: {
        name: 'Seller GmbH',
        vatId: 'DE123456789',
        address: { line1: 'Str 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
      },
      payment: { meansCode: '58', iban: 'DE02120300000000202051' },
      paymentTermDays: 14,
      // 30 days net, 2 % Skonto within 7 days: 23.80 of 1,190.00
      paymentTerms: [{ id: 3, days: 30, discount: { percent: 2, days: 7 } }],
      defaultPaymentTermId: 3,
    }));
    peer.serveRpc('customer.billing-snapshot.v1', async () => ({
      found: true,
      hasBillingAddress: true,
      buyer: { name: 'Buyer AG', address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' } },
      language: 'de',
      vatStatus: 'not_checked',
    }));
    peer.serveRpc('quota.reserve.v1', async () => ({ granted: true, used: 1, limit: 10_000, reset_date: '2026-12-01', plan: 'pro' }));
    peer.serveRpc('document.template-exists.v1', async () => ({ exists: true }));
    peer.onCommand('document.render-invoice.v1', async (msg) => {
      const { jobId, invoiceId } = msg.data;
      await peer.publishEvent('document.rendered.v1', msg.companyId, {
        jobId,
        invoiceId,
        pdf: { key: `${company}/invoices/${invoiceId}/invoice.pdf`, filename: 'invoice.pdf', contentType: 'application/pdf', size: 10 },
      });
    });
    peer.onEvent(
      'payments-log',
      ['invoice.payment-recorded.v1', 'invoice.payment-reversed.v1', 'invoice.status-changed.v1'],
      async (msg) => {
        events.push({ type: msg.type, id: msg.id, data: msg.data as Record<string, unknown> });
      },
    );
    await peer.start();
    service = await createInvoiceService(invoiceConfig.parse(testEnv(prefix, stores.mongoUrl, stores.s3Env)));
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  /** A finalized invoice of 10 h at 100.00, 19 %: 1,190.00 gross. */
  const finalizedInvoice = async () => {
    const id = (await call('POST', '/invoice/', { customer_id: 1, invoice_format: 'ZUGFERD' })).body.invoice_id as number;
    const pos = await call('POST', `/invoice/${id}/positions`, {
      title: 'Consulting',
      quantity: 10,
      unit_id: 'HUR',
      unit_net_amount: 100,
      tax_rate: 0.19,
    });
    expect(pos.status).toBe(201);
    const job = await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(job.status).toBe(201);
    await waitFor(async () => (await call('GET', `/invoice/${id}`)).body.status === 'OPEN');
    return id;
  };
  const pay = (id: number, amount: unknown, extra: Record<string, unknown> = {}) =>
    call('POST', `/invoice/${id}/payments`, { amount, date: today(), method: 'BANK_TRANSFER', ...extra });
  const eventsOf = (invoiceId: number) => events.filter((e) => e.data.invoiceId === invoiceId);

  it('takes partial payments, shows paid and open amounts, and makes the invoice PAID at zero with its events', async () => {
    const id = await finalizedInvoice();
    expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({ gross_amount: 1190, paid_amount: 0, open_amount: 1190 });

    const first = await pay(id, '190.00', { reference: 'part 1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      invoice_id: id,
      amount: 190,
      discount: 0,
      source: 'manual',
      open_amount: 1000,
      invoice_status: 'OPEN',
    });
    expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({ status: 'OPEN', paid_amount: 190, open_amount: 1000 });
    const open = await call('GET', `/invoice/?open=true&limit=100`);
    expect(open.body.invoices.map((i: { id: number }) => i.id)).toContain(id);

    const second = await pay(id, 1000);
    expect(second.body).toMatchObject({ open_amount: 0, invoice_status: 'PAID' });
    const inv = (await call('GET', `/invoice/${id}`)).body;
    expect(inv).toMatchObject({ status: 'PAID', paid_amount: 1190, open_amount: 0, paid_date: today(), payment_method: 'BANK_TRANSFER' });
    expect((await call('GET', `/invoice/?open=false&limit=100`)).body.invoices.map((i: { id: number }) => i.id)).toContain(id);

    const list = await call('GET', `/invoice/${id}/payments`);
    expect(list.body).toMatchObject({ total: 2, paid_amount: 1190, open_amount: 0 });
    expect(list.body.payments.map((p: { amount: number }) => p.amount)).toEqual([190, 1000]);
    expect((await call('GET', `/invoice/${id}/payments/${first.body.id}`)).body).toMatchObject({ reference: 'part 1' });

    await waitFor(async () => eventsOf(id).length === 3);
    expect(eventsOf(id).map((e) => [e.type, e.data.openAmount ?? e.data.status])).toEqual([
      ['invoice.payment-recorded.v1', '1000.00'],
      ['invoice.status-changed.v1', 'PAID'],
      ['invoice.payment-recorded.v1', '0.00'],
    ]);
    // a paid invoice takes nothing more
    expect(await pay(id, 1)).toMatchObject({ status: 409, body: { code: 'INVOICE_ALREADY_PAID' } });
  });

  it('refuses an overpayment naming the open amount; of two payments at once that together overpay, one succeeds', async () => {
    const id = await finalizedInvoice();
    const over = await pay(id, '1190.01');
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', open_amount: 1190 });
    expect(over.body.message).toContain('1190.00');

    const both = await Promise.all([pay(id, 700), pay(id, 700)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.status === 409)!.body).toMatchObject({ code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', open_amount: 490 });
    expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({ paid_amount: 700, open_amount: 490 });
    expect((await call('GET', `/invoice/${id}/payments`)).body.total).toBe(1);

    // four at once of 200 on the 490 open: exactly two fit
    const four = await Promise.all([1, 2, 3, 4].map(() => pay(id, 200)));
    expect(four.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
    expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({ status: 'OPEN', paid_amount: 1100, open_amount: 90 });
  });

  it('PUT status PAID pays the open amount as one payment (source status); a reversal reopens the invoice', async () => {
    const id = await finalizedInvoice();
    await pay(id, 90);
    const put = await call('PUT', `/invoice/${id}/status`, { status: 'PAID', paid_date: today(), payment_method: 'CASH' });
    expect(put.status).toBe(200);
    const payments = (await call('GET', `/invoice/${id}/payments`)).body.payments;
    expect(payments.map((p: { amount: number; source: string }) => [p.amount, p.source])).toEqual([
      [90, 'manual'],
      [1100, 'status'],
    ]);
    expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({ status: 'PAID', payment_method: 'CASH', open_amount: 0 });

    const reversed = await call('POST', `/invoice/${id}/payments/${payments[1].id}/reverse`);
    expect(reversed.status).toBe(200);
    expect(reversed.body).toMatchObject({ message: 'payment reversed', open_amount: 1100, invoice_status: 'OPEN' });
    expect(reversed.body.reversed_at).toEqual(expect.any(String));
    expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({
      status: 'OPEN',
      paid_amount: 90,
      open_amount: 1100,
      paid_date: null,
    });
    // again: the same answer, nothing changes twice
    expect((await call('POST', `/invoice/${id}/payments/${payments[1].id}/reverse`)).body.reversed_at).toBe(reversed.body.reversed_at);
    expect((await call('GET', `/invoice/${id}/payments?include_reversed=false`)).body.total).toBe(1);
    await waitFor(async () => eventsOf(id).some((e) => e.type === 'invoice.payment-reversed.v1'));
    expect(eventsOf(id).filter((e) => e.type === 'invoice.payment-reversed.v1')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ paymentId: payments[1].id, amount: '1100.00', openAmount: '1100.00' }) }),
    ]);
    // paid again after the reversal: PAID announced once more (its own message id)
    await pay(id, 1100);
    await waitFor(async () => eventsOf(id).filter((e) => e.type === 'invoice.status-changed.v1').length === 2);
  });

  it('a payment of a sent invoice reversed returns it to SENT (announced)', async () => {
    const id = await finalizedInvoice();
    expect((await call('PUT', `/invoice/${id}/status`, { status: 'SENT' })).status).toBe(200);
    const p = await pay(id, 1190);
    expect(p.body.invoice_status).toBe('PAID');
    const reversed = await call('POST', `/invoice/${id}/payments/${p.body.id}/reverse`);
    expect(reversed.body.invoice_status).toBe('SENT');
    await waitFor(async () => eventsOf(id).filter((e) => e.type === 'invoice.status-changed.v1').length === 3);
    expect(
      eventsOf(id)
        .filter((e) => e.type === 'invoice.status-changed.v1')
        .map((e) => e.data.status),
    ).toEqual(['SENT', 'PAID', 'SENT']);
  });

  it('refuses to reverse a payment once exported (export.payments-exported.v1, applied once)', async () => {
    const id = await finalizedInvoice();
    const p = (await pay(id, 100)).body;
    await peer.publishEvent('export.payments-exported.v1', company, { paymentIds: [p.id], jobId: 'job-1' });
    await waitFor(async () => (await call('GET', `/invoice/${id}/payments/${p.id}`)).body.exported === true);
    await peer.publishEvent('export.payments-exported.v1', company, { paymentIds: [p.id], jobId: 'job-2' });
    const refused = await call('POST', `/invoice/${id}/payments/${p.id}/reverse`);
    expect(refused).toMatchObject({ status: 409, body: { code: 'PAYMENT_EXPORTED' } });
    expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({ paid_amount: 100 });
    // payment ids are per company: another company does not see this one
    const other = serviceCaller(() => url, asCompanyId('cmp_payments_other'));
    expect((await other('GET', `/invoice/${id}/payments/${p.id}`)).status).toBe(404);
  });

  it('grants Skonto within its period when the amount is the open amount minus the discount', async () => {
    const id = await finalizedInvoice();
    const p = await pay(id, '1166.20');
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ amount: 1166.2, discount: 23.8, open_amount: 0, invoice_status: 'PAID' });
    expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({ paid_amount: 1166.2, skonto_amount: 23.8, open_amount: 0 });
    await waitFor(async () => eventsOf(id).some((e) => e.type === 'invoice.payment-recorded.v1'));
    expect(eventsOf(id).find((e) => e.type === 'invoice.payment-recorded.v1')!.data).toMatchObject({
      amount: '1166.20',
      discount: '23.80',
      openAmount: '0.00',
      paidInFull: true,
    });

    const other = await finalizedInvoice();
    expect(await pay(other, '1166.20', { skonto: false })).toMatchObject({ status: 201, body: { discount: 0, open_amount: 23.8 } });
    expect(await pay(other, '23.80', { skonto: true })).toMatchObject({ status: 409, body: { code: 'SKONTO_NOT_APPLICABLE' } });
    // a payment after a partial one within the period: open amount minus discount
    const third = await finalizedInvoice();
    await pay(third, 166.2);
    expect(await pay(third, 1000)).toMatchObject({ status: 201, body: { discount: 23.8, open_amount: 0 } });
  });

  it('answers bad input with 400 and unpayable invoices with 409', async () => {
    const id = await finalizedInvoice();
    for (const amount of [0, -5, '0.00', '1.001', 'abc', '1e3', 1e12, '99999999999', null]) {
      const res = await pay(id, amount);
      expect([amount, res.status, res.body.code]).toEqual([amount, 400, 'VALIDATION_ERROR']);
    }
    expect((await pay(id, 10, { refrence: 'x' })).body).toMatchObject({
      code: 'UNKNOWN_FIELD',
      errors: expect.arrayContaining([expect.objectContaining({ path: 'refrence' })]),
    });
    expect((await pay(id, 10, { method: 'GOLD' })).status).toBe(400);
    expect((await pay(id, 10, { date: '2026-02-30' })).status).toBe(400);
    expect((await pay(id, 10, { date: daysFromToday(3) })).body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await pay(id, 10, { date: daysFromToday(-400) })).body.message).toMatch(/before the invoice date/);
    expect((await call('GET', `/invoice/${id}`)).body.paid_amount).toBe(0);

    const draft = (await call('POST', '/invoice/', { customer_id: 1 })).body.invoice_id as number;
    expect(await pay(draft, 10)).toMatchObject({ status: 409, body: { code: 'INVOICE_NOT_PAYABLE' } });
    expect((await call('GET', `/invoice/${draft}`)).body.open_amount).toBeNull();
    expect((await pay(999_999, 10)).status).toBe(404);
    expect((await call('POST', `/invoice/${id}/payments/999999/reverse`)).status).toBe(404);
  });
});
