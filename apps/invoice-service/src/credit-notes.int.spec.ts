import type { Bus } from '@inv/bus';
import { asCompanyId, type Messages } from '@inv/contracts';
import { deleteBrokerObjects, deleteRedisKeys, peerBus, testEnv, testStores, uniquePrefix, waitFor, serviceCaller } from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';

jest.setTimeout(90_000);

/**
 * Credit notes stay within their invoice: all credit notes of an invoice together never credit more than its
 * gross total, also when they are finalized at the same time (invoice-service against the real broker and the
 * embedded MongoDB; account, customer, quota and document service played by a peer bus).
 */
describe('credit notes within the invoice (invoice-service)', () => {
  const prefix = uniquePrefix();
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const company = asCompanyId('cmp_credit');
  /** 'twice': the rendered event is delivered twice (two envelopes: the inbox does not dedupe them). */
  let renderBehaviour: 'ok' | 'fail' | 'twice' = 'ok';
  const statusEvents: Array<{ id: string; invoiceId: number; status: string; paidDate?: string; settledByCredit?: boolean }> = [];

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
      if (renderBehaviour === 'fail')
        return void (await peer.publishEvent('document.render-failed.v1', msg.companyId, { jobId, invoiceId, reason: 'font exploded' }));
      const rendered = {
        jobId,
        invoiceId,
        pdf: { key: `${company}/invoices/${invoiceId}/invoice.pdf`, filename: 'invoice.pdf', contentType: 'application/pdf', size: 10 },
      };
      await peer.publishEvent('document.rendered.v1', msg.companyId, rendered);
      if (renderBehaviour === 'twice') await peer.publishEvent('document.rendered.v1', msg.companyId, rendered);
    });
    peer.onEvent('credit-status-log', ['invoice.status-changed.v1'], async (msg) => {
      const { invoiceId, status, paidDate, settledByCredit } = msg.data as {
        invoiceId: number;
        status: string;
        paidDate?: string;
        settledByCredit?: boolean;
      };
      statusEvents.push({ id: msg.id, invoiceId, status, paidDate, settledByCredit });
    });
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

  /** Starts the finalization; answers the job's end state ('finished' | 'failed'), or the refusal. */
  const finalize = async (id: number) => {
    const job = await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    if (job.status !== 201) return job;
    let status = '';
    await waitFor(async () => {
      status = (await call('GET', `/invoice/${id}/job/${job.body.job_id}`)).body.status;
      return status === 'finished' || status === 'failed';
    });
    return { status: 201, body: { ...job.body, job_status: status } };
  };

  /** A finalized invoice: 10 h consulting at 100.00 and 4 pens at 12.50, 19 %: 1,050.00 net, 1,249.50 gross. */
  const finalizedInvoice = async (reducedPen = false) => {
    const id = (await call('POST', '/invoice/', { customer_id: 1, invoice_format: 'ZUGFERD' })).body.invoice_id as number;
    const consulting = await call('POST', `/invoice/${id}/positions`, {
      title: 'Consulting',
      quantity: 10,
      unit_id: 'HUR',
      unit_net_amount: 100,
      tax_rate: 0.19,
    });
    const pens = await call('POST', `/invoice/${id}/positions`, {
      title: 'Pens',
      quantity: 4,
      unit_id: 'C62',
      unit_net_amount: 12.5,
      tax_rate: reducedPen ? 0.07 : 0.19,
      ...(reducedPen ? { tax_treatment_id: 'reduced' } : {}),
    });
    expect([consulting.status, pens.status]).toEqual([201, 201]);
    expect((await finalize(id)).body.job_status).toBe('finished');
    return { id, consulting: consulting.body.id as number, pens: pens.body.id as number };
  };

  const creditNote = async (invoiceId: number, body?: unknown) => {
    const res = await call('POST', `/invoice/${invoiceId}/credit-note`, body);
    expect(res.status).toBe(201);
    return res.body.invoice_id as number;
  };
  const gross = async (id: number) => (await call('GET', `/invoice/${id}`)).body.gross_amount as number;
  const creditedCents = async (id: number) => (await service.deps.invoices.get(company, id))?.creditedCents ?? 0;

  it('keeps the old full credit note (no body) and credits parts by position and quantity', async () => {
    const inv = await finalizedInvoice();
    const full = await creditNote(inv.id);
    expect(await gross(full)).toBe(1249.5);
    const part = await creditNote(inv.id, { positions: [{ position_id: inv.consulting, quantity: 2.5 }, { position_id: inv.pens }] });
    const note = (await call('GET', `/invoice/${part}`)).body;
    expect(note).toMatchObject({ document_type: 'CREDIT_NOTE', preceding_invoice_id: inv.id, gross_amount: 357 });
    expect(note.positions.map((p: { title: string; quantity: number }) => [p.title, p.quantity])).toEqual([
      ['Consulting', 2.5],
      ['Pens', 4],
    ]);
  });

  it('refuses a full credit note after a partial one: 409 CREDIT_EXCEEDS_INVOICE with the remaining gross', async () => {
    const inv = await finalizedInvoice();
    const full = await creditNote(inv.id); // drafted while nothing was credited
    const part = await creditNote(inv.id, { positions: [{ position_id: inv.consulting, quantity: 1 }] }); // 119.00
    expect((await finalize(part)).body.job_status).toBe('finished');
    const refused = await finalize(full);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'CREDIT_EXCEEDS_INVOICE',
      remaining_gross: 1130.5,
      invoice_gross: 1249.5,
      credited_gross: 119,
      requested_gross: 1249.5,
    });
    // the refused credit note is still an editable draft, not being finalized
    expect((await call('GET', `/invoice/${full}`)).body.status).toBe('DRAFT');
    expect((await call('DELETE', `/invoice/${full}/position/${(await call('GET', `/invoice/${full}`)).body.positions[1].id}`)).status).toBe(
      200,
    );
    // a partial credit note beyond the rest is refused when it is created
    const early = await call('POST', `/invoice/${inv.id}/credit-note`, { amount: 1130.51 });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'CREDIT_EXCEEDS_INVOICE', remaining_gross: 1130.5 });
    expect(await creditedCents(inv.id)).toBe(11_900);
  });

  it('lets partial credit notes reach exactly the gross total, and not a cent more', async () => {
    const inv = await finalizedInvoice();
    const late = await creditNote(inv.id, { amount: 0.01 }); // drafted while there was room
    const a = await creditNote(inv.id, { positions: [{ position_id: inv.consulting }] }); // 1,190.00
    expect((await finalize(a)).body.job_status).toBe('finished');
    const tooMuch = await call('POST', `/invoice/${inv.id}/credit-note`, { amount: 59.51 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toMatchObject({ code: 'CREDIT_EXCEEDS_INVOICE', remaining_gross: 59.5, requested_gross: 59.51 });
    const b = await creditNote(inv.id, { amount: 59.5 });
    expect(await gross(b)).toBe(59.5);
    expect((await finalize(b)).body.job_status).toBe('finished');
    expect(await creditedCents(inv.id)).toBe(124_950);
    // one cent more: refused at finalization (drafted earlier) and at creation, even as a full copy
    const refused = await finalize(late);
    expect(refused).toMatchObject({ status: 409, body: { code: 'CREDIT_EXCEEDS_INVOICE', remaining_gross: 0, requested_gross: 0.01 } });
    expect((await call('POST', `/invoice/${inv.id}/credit-note`, { amount: 0.01 })).status).toBe(409);
    expect((await call('POST', `/invoice/${inv.id}/credit-note`)).body).toMatchObject({
      code: 'CREDIT_EXCEEDS_INVOICE',
      remaining_gross: 0,
    });
    expect(await creditedCents(inv.id)).toBe(124_950);
  });

  it('never credits more than the gross when 10 credit notes are finalized at once', async () => {
    const inv = await finalizedInvoice();
    const notes: number[] = [];
    for (let i = 0; i < 10; i++) notes.push(await creditNote(inv.id, { amount: 200 })); // 10 x 200.00 against 1,249.50
    const answers = await Promise.all(
      notes.map((id) => call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' })),
    );
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 409);
    expect(accepted.length + refused.length).toBe(10);
    for (const r of refused) expect(r.body.code).toBe('CREDIT_EXCEEDS_INVOICE');
    expect(accepted).toHaveLength(6); // 6 x 200.00 = 1,200.00 fits, a 7th would not
    await waitFor(async () => {
      const states = await Promise.all(notes.map(async (id) => (await call('GET', `/invoice/${id}`)).body.status));
      // applied in full to the unpaid invoice: each finalized credit note is settled (PAID) right away
      return states.filter((s) => s === 'PAID').length === 6;
    });
    expect(await creditedCents(inv.id)).toBe(120_000);
    const list = await call('GET', '/invoice/?document_type=CREDIT_NOTE&limit=100');
    const finalizedOfInvoice = list.body.invoices.filter(
      (n: { preceding_invoice_id?: number; status: string }) => n.preceding_invoice_id === inv.id && n.status !== 'DRAFT',
    );
    expect(finalizedOfInvoice.reduce((sum: number, n: { gross_amount: number }) => sum + n.gross_amount * 100, 0)).toBe(120_000);
  });

  it('gives the amount back when a credit note fails to finalize', async () => {
    const inv = await finalizedInvoice();
    const full = await creditNote(inv.id);
    renderBehaviour = 'fail';
    try {
      expect((await finalize(full)).body.job_status).toBe('failed');
    } finally {
      renderBehaviour = 'ok';
    }
    expect(await creditedCents(inv.id)).toBe(0);
    expect((await finalize(full)).body.job_status).toBe('finished');
    expect(await creditedCents(inv.id)).toBe(124_950);
  });

  it('answers 400 naming the field for credits the invoice cannot give', async () => {
    const inv = await finalizedInvoice();
    const bad = async (body: unknown) => {
      const res = await call('POST', `/invoice/${inv.id}/credit-note`, body);
      expect(res.status).toBe(400);
      return res.body.errors.map((e: { path: string }) => e.path);
    };
    expect(await bad({ positions: [{ position_id: 999_999 }] })).toEqual(['positions.0.position_id']);
    expect(await bad({ positions: [{ position_id: inv.consulting, quantity: 10.0001 }] })).toEqual(['positions.0.quantity']);
    expect(await bad({ positions: [{ position_id: inv.consulting, quantity: 0 }] })).toEqual(['positions.0.quantity']);
    expect(await bad({ positions: [{ position_id: inv.pens }], amount: 1 })).toContain('amount');
    expect(await bad({ amount: -5 })).toEqual(['amount']);
    // at 19 %, 0.02 net is 0.02 gross and 0.03 net 0.04 gross: 0.03 cannot be credited exactly
    const unreachable = await call('POST', `/invoice/${inv.id}/credit-note`, { amount: 0.03 });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.errors[0].message).toContain('nearest: 0.02 or 0.04');
    const mixed = await finalizedInvoice(true);
    const byAmount = await call('POST', `/invoice/${mixed.id}/credit-note`, { amount: 10 });
    expect(byAmount.status).toBe(400);
    expect(byAmount.body.errors[0].message).toContain('several VAT rates');
  });

  describe('a finalized credit note lowers the open amount of its invoice', () => {
    const today = () => new Date().toISOString().slice(0, 10);
    /** A finalized invoice of 1 x 100.00 at 19 %: 119.00 gross. */
    const smallInvoice = async () => {
      const id = (await call('POST', '/invoice/', { customer_id: 1, invoice_format: 'ZUGFERD' })).body.invoice_id as number;
      const pos = await call('POST', `/invoice/${id}/positions`, {
        title: 'Service',
        quantity: 1,
        unit_id: 'C62',
        unit_net_amount: 100,
        tax_rate: 0.19,
      });
      expect(pos.status).toBe(201);
      expect((await finalize(id)).body.job_status).toBe('finished');
      return id;
    };
    const pay = (id: number, amount: string) => call('POST', `/invoice/${id}/payments`, { amount, date: today(), method: 'BANK_TRANSFER' });
    const openIds = async () =>
      ((await call('GET', '/invoice/?open=true&limit=100')).body.invoices as Array<{ id: number }>).map((i) => i.id);

    it('settles the invoice (PAID, no payment) when the credit leaves nothing open, once although rendered twice', async () => {
      const id = await smallInvoice();
      expect((await pay(id, '50.00')).status).toBe(201);
      const note = await creditNote(id, { amount: 69 });
      expect(await gross(note)).toBe(69);
      renderBehaviour = 'twice';
      try {
        expect((await finalize(note)).body.job_status).toBe('finished');
      } finally {
        renderBehaviour = 'ok';
      }
      const inv = (await call('GET', `/invoice/${id}`)).body;
      expect(inv).toMatchObject({ status: 'PAID', paid_amount: 50, credited_amount: 69, open_amount: 0, paid_date: today() });
      expect((await call('GET', `/invoice/${id}/payments`)).body.total).toBe(1);
      expect(await openIds()).not.toContain(id);
      // the second rendered event changed nothing: counted once, announced once
      await waitFor(async () => statusEvents.some((e) => e.invoiceId === id && e.status === 'PAID'));
      await new Promise((r) => setTimeout(r, 500));
      expect((await service.deps.invoices.get(company, id))?.creditSettledCents).toBe(6_900);
      const paid = statusEvents.filter((e) => e.invoiceId === id && e.status === 'PAID');
      expect(new Set(paid.map((e) => e.id)).size).toBe(1);
      expect(paid[0]).toMatchObject({ paidDate: today(), settledByCredit: true });
      // the credit note was applied in full (the invoice still owed 69.00): settled too, without a refund
      expect((await call('GET', `/invoice/${note}`)).body).toMatchObject({
        status: 'PAID',
        paid_amount: 0,
        credited_amount: 69,
        open_amount: 0,
      });
      expect(await openIds()).not.toContain(note);
    });

    it('settles both an unpaid invoice and a credit note of its whole gross: two PAID without payments', async () => {
      const id = await smallInvoice();
      const note = await creditNote(id, { amount: 119 });
      expect((await finalize(note)).body.job_status).toBe('finished');
      expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({
        status: 'PAID',
        paid_amount: 0,
        credited_amount: 119,
        open_amount: 0,
      });
      expect((await call('GET', `/invoice/${note}`)).body).toMatchObject({
        status: 'PAID',
        paid_amount: 0,
        credited_amount: 119,
        open_amount: 0,
        paid_date: today(),
      });
      expect((await call('GET', `/invoice/${id}/payments`)).body.total).toBe(0);
      expect((await call('GET', `/invoice/${note}/payments`)).body.total).toBe(0);
      const open = await openIds();
      expect(open).not.toContain(id);
      expect(open).not.toContain(note);
      await waitFor(
        async () => statusEvents.filter((e) => (e.invoiceId === id || e.invoiceId === note) && e.status === 'PAID').length === 2,
      );
      for (const doc of [id, note])
        expect(statusEvents.find((e) => e.invoiceId === doc && e.status === 'PAID')).toMatchObject({
          settledByCredit: true,
          paidDate: today(),
        });
    });

    it('applies to a partly paid invoice only what it still owed: the rest of the credit note is a refund owed', async () => {
      const id = await smallInvoice();
      expect((await pay(id, '100.00')).status).toBe(201);
      const note = await creditNote(id, { amount: 69 });
      expect((await finalize(note)).body.job_status).toBe('finished');
      // the invoice counts what was applied to it (19.00), the figure the credit note shows
      expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({
        status: 'PAID',
        paid_amount: 100,
        credited_amount: 19,
        open_amount: 0,
      });
      expect((await call('GET', `/invoice/${note}`)).body).toMatchObject({
        status: 'OPEN',
        paid_amount: 0,
        credited_amount: 19,
        open_amount: 50,
      });
      expect(await openIds()).toContain(note);
      const over = await pay(note, '69.00');
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', open_amount: 50 });
      const refund = await pay(note, '50.00');
      expect(refund.status).toBe(201);
      expect(refund.body).toMatchObject({ open_amount: 0, invoice_status: 'PAID' });
      expect((await call('GET', `/invoice/${note}`)).body).toMatchObject({
        status: 'PAID',
        paid_amount: 50,
        credited_amount: 19,
        open_amount: 0,
      });
      expect(await openIds()).not.toContain(note);
      await waitFor(async () => statusEvents.some((e) => e.invoiceId === id && e.status === 'PAID' && e.settledByCredit === true));
    });

    it('lowers the open amount of a partly credited invoice: payments beyond it are refused, the rest pays it', async () => {
      const id = await smallInvoice();
      const note = await creditNote(id, { amount: 19 });
      expect((await finalize(note)).body.job_status).toBe('finished');
      expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({ status: 'OPEN', credited_amount: 19, open_amount: 100 });
      expect(await openIds()).toContain(id);
      const over = await pay(id, '119.00');
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', open_amount: 100 });
      expect(over.body.detail).toContain('100.00');
      const rest = await pay(id, '100.00');
      expect(rest.status).toBe(201);
      expect(rest.body).toMatchObject({ open_amount: 0, invoice_status: 'PAID' });
      expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({
        status: 'PAID',
        paid_amount: 100,
        credited_amount: 19,
        open_amount: 0,
      });
      expect(await openIds()).not.toContain(id);
    });

    it('leaves a PAID invoice PAID with nothing credited: the whole credit note is a refund owed', async () => {
      const id = await smallInvoice();
      expect((await pay(id, '119.00')).status).toBe(201);
      await waitFor(async () => statusEvents.some((e) => e.invoiceId === id && e.status === 'PAID'));
      const note = await creditNote(id, { amount: 19 });
      expect((await finalize(note)).body.job_status).toBe('finished');
      expect((await call('GET', `/invoice/${id}`)).body).toMatchObject({
        status: 'PAID',
        paid_amount: 119,
        credited_amount: 0,
        open_amount: 0,
      });
      expect((await service.deps.invoices.get(company, id))?.creditSettledCents ?? 0).toBe(0);
      // nothing was owed any more: the whole credit note is a refund owed
      expect((await call('GET', `/invoice/${note}`)).body).toMatchObject({ status: 'OPEN', credited_amount: 0, open_amount: 19 });
      await new Promise((r) => setTimeout(r, 300));
      expect(statusEvents.filter((e) => e.invoiceId === id)).toHaveLength(1); // the payment's
      expect(statusEvents.filter((e) => e.invoiceId === note)).toHaveLength(0);
    });
  });
});
