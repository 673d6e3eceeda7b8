import { crashRetryHarness } from '@inv/runtime/testing';

jest.setTimeout(240_000);

/**
 * The documented retry path for webhook-service's creations: a POST sent with an Idempotency-Key whose service dies
 * right after its commit (the gateway answers 504 and forgets its copy) and that the client sends again with the same
 * key. webhook-service runs as its own process behind a relay to MongoDB that kills it (SIGKILL) the moment its
 * commit has gone out; after a restart the retry answers the first result (a secret only redacted: it was never
 * kept) and nothing exists twice.
 */
describe('idempotent retries across a crash between commit and answer (webhook-service)', () => {
  const company = 'cmp_idemwh';
  const { call, idempotentPost, crashThenRetry, stored: read } = crashRetryHarness({ service: 'webhook', company });
  // a port nothing listens on: the pings fail and stay in the log, which is all this test reads
  const endpoint = { url: 'http://127.0.0.1:9/hook', event_types: ['invoice.finalized'] };

  /** What the service's database holds, read around the relay. */
  const stored = async () => ({
    endpoints: await read('invoicing_webhook', 'endpoints', { companyId: company }),
    journal: JSON.stringify(await read('invoicing_webhook', 'idempotency_journal', { companyId: company })),
  });

  it('creates an endpoint once: the retry answers it with its secret redacted, a third send replays the kept answer', async () => {
    const retry = await crashThenRetry('/webhook-endpoints/', endpoint, 'endpoint-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toMatchObject({ id: expect.stringMatching(/^we_/), url: endpoint.url, secret: `whsec_${'*'.repeat(32)}` });
    const list = (await call('GET', '/webhook-endpoints/')).body;
    expect((list.endpoints ?? list).map((e: { id: string }) => e.id)).toEqual([retry.body.id]);
    const { endpoints, journal } = await stored();
    expect(endpoints.map((e) => e._id)).toEqual([retry.body.id]);
    expect(journal).not.toMatch(/whsec_[A-Za-z0-9+/]{16}/);
    expect(await idempotentPost('/webhook-endpoints/', endpoint, 'endpoint-1')).toEqual(retry);
  });

  it('queues a test ping once: the retry answers the same delivery', async () => {
    const id = (await call('POST', '/webhook-endpoints/', { ...endpoint, url: 'http://127.0.0.1:9/ping' })).body.id as string;
    const retry = await crashThenRetry(`/webhook-endpoints/${id}/test`, {}, `ping-${id}`);
    expect(retry.status).toBe(202);
    expect(retry.body).toEqual({ delivery_id: expect.stringMatching(/^wd_/), event_id: expect.stringMatching(/^evt_/) });
    const deliveries = (await call('GET', `/webhook-endpoints/${id}/deliveries`)).body.deliveries as Array<{
      id: string;
      event_id: string;
    }>;
    expect(deliveries.map((d) => [d.id, d.event_id])).toEqual([[retry.body.delivery_id, retry.body.event_id]]);
  });

  it('rotates a secret once: the retry answers the rotation stored, its secret redacted', async () => {
    const id = (await call('POST', '/webhook-endpoints/', { ...endpoint, url: 'http://127.0.0.1:9/rotate' })).body.id as string;
    const retry = await crashThenRetry(`/webhook-endpoints/${id}/rotate-secret`, {}, `rotate-${id}`);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ secret: `whsec_${'*'.repeat(32)}`, previous_secret_expires_at: expect.any(String) });
    const secrets = (await stored()).endpoints.find((e) => String(e._id) === id)!.secrets as Array<{ expiresAt?: Date }>;
    // the first secret and one rotation: the retry rotated nothing again
    expect(secrets).toHaveLength(2);
    expect(secrets.find((s) => s.expiresAt)!.expiresAt!.toISOString()).toBe(retry.body.previous_secret_expires_at);
  });
});
