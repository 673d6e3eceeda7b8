import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import { crashRetryHarness } from '@inv/runtime/testing';
import { peerBus, waitFor } from '@inv/testing';
import { peerBillingSnapshot, servePeerRpcs, serveStubRenderer } from './testing/peer-rpcs';

jest.setTimeout(180_000);

/**
 * The documented retry path: a POST sent with an Idempotency-Key whose service dies right after its commit (the
 * gateway answers 504 and forgets its copy) and that the client sends again with the same key. invoice-service runs
 * as its own process behind a relay to MongoDB that kills it (SIGKILL) the moment its commit has gone out; after a
 * restart the retry answers the first result and nothing exists twice.
 */
describe('idempotent retries across a crash between commit and answer (invoice-service)', () => {
  const company = 'cmp_idemkill';
  const bucket = 'idemkill';
  let s3: EmbeddedS3 | undefined;
  let peer: Bus<Messages> | undefined;
  const { call, idempotentPost, crashThenRetry } = crashRetryHarness({
    service: 'invoice',
    company,
    // a peer on the bus answers customer-service's snapshot and document-service's rendering
    setup: async (prefix) => {
      s3 = await startEmbeddedS3();
      const store = createObjectStore({
        endpoint: s3.endpoint,
        accessKey: s3.accessKey,
        secretKey: s3.secretKey,
        bucket,
        presignTtlSeconds: 60,
      });
      await store.ensureBucket();
      const bus = (peer = peerBus(prefix));
      servePeerRpcs(bus, {
        'customer.billing-snapshot.v1': () => ({
          ...peerBillingSnapshot,
          buyer: { ...peerBillingSnapshot.buyer, contact: { email: 'ap@buyer.example' } },
        }),
      });
      serveStubRenderer(bus, store);
      await bus.start();
      return { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: bucket };
    },
    teardown: async () => {
      await peer?.stop();
      await s3?.stop();
    },
  });

  const finalizedInvoice = async () => {
    const id = (await call('POST', '/invoice/', { customer_id: 1 })).body.invoice_id as number;
    await call('POST', `/invoice/${id}/positions`, {
      title: 'Consulting',
      quantity: 1,
      unit_id: 'HUR',
      unit_net_amount: 100,
      tax_rate: 0.19,
    });
    expect((await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' })).status).toBe(201);
    await waitFor(async () => ((await call('GET', `/invoice/${id}`)).body.status === 'OPEN' ? true : undefined), {
      timeoutMs: 30_000,
      what: 'finalized',
    });
    return id;
  };

  it('records a payment once: the retry after the crash answers it, a third send replays the kept answer', async () => {
    const id = await finalizedInvoice();
    const retry = await crashThenRetry(
      `/invoice/${id}/payments`,
      { amount: 50, date: new Date().toISOString().slice(0, 10), method: 'BANK_TRANSFER' },
      `pay-${id}`,
    );
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toMatchObject({ id: expect.any(Number), amount: 50, open_amount: 69 });
    const payments = (await call('GET', `/invoice/${id}/payments`)).body.payments;
    expect(payments).toHaveLength(1);
    expect(payments[0].id).toBe(retry.body.id);
    const third = await idempotentPost(
      `/invoice/${id}/payments`,
      { amount: 50, date: new Date().toISOString().slice(0, 10), method: 'BANK_TRANSFER' },
      `pay-${id}`,
    );
    expect(third).toEqual(retry);
    // the same key with another body is refused, never replayed
    const other = await idempotentPost(
      `/invoice/${id}/payments`,
      { amount: 10, date: new Date().toISOString().slice(0, 10), method: 'BANK_TRANSFER' },
      `pay-${id}`,
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('queues an e-mail once: the retry after the crash answers the same e-mail', async () => {
    const id = await finalizedInvoice();
    const retry = await crashThenRetry(`/invoice/${id}/send_email`, { to: 'ap@buyer.example' }, `mail-${id}`);
    expect(retry.status).toBe(202);
    expect(retry.body.email_id).toEqual(expect.any(String));
    const emails = (await call('GET', `/invoice/${id}/emails`)).body.emails;
    expect(emails.map((e: { id: string }) => e.id)).toEqual([retry.body.email_id]);
  });

  it('adds a position once', async () => {
    const id = (await call('POST', '/invoice/', { customer_id: 1 })).body.invoice_id as number;
    const position = { title: 'Support', quantity: 2, unit_id: 'HUR', unit_net_amount: 80, tax_rate: 0.19 };
    const retry = await crashThenRetry(`/invoice/${id}/positions`, position, `pos-${id}`);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ position_id: expect.any(Number), invoice: { gross_amount: 190.4 } });
    const { positions } = (await call('GET', `/invoice/${id}/positions`)).body;
    expect(positions.map((p: { id: number }) => p.id)).toEqual([retry.body.position_id]);
  });

  it('creates a draft once', async () => {
    const retry = await crashThenRetry('/invoice/', { customer_id: 1 }, 'draft-1');
    expect(retry.status).toBe(201);
    const list = (await call('GET', '/invoice/?status=DRAFT&limit=100')).body.invoices as Array<{ invoice_id: number }>;
    expect(list.filter((i) => i.invoice_id === retry.body.invoice_id)).toHaveLength(1);
    const ids = list.map((i) => i.invoice_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((i) => i > retry.body.invoice_id)).toEqual([]);
  });
});
