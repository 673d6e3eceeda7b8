import type { ServerResponse } from 'node:http';
import { deleteBrokerObjects, serviceCaller, testEnv, testMongo, uniquePrefix, waitFor } from '@inv/testing';
import { MAX_WEBHOOK_ENDPOINTS } from '@inv/contracts';
import { webhookConfig } from './config';
import { startReceiver, type Receiver } from './testing/receiver';
import { createWebhookService } from './webhook-service';

jest.setTimeout(120_000);

/** Attempts time out after this (short for the test; 10 s by default). */
const TIMEOUT_MS = 3000;

describe("webhook-service: one company's slow receivers do not delay another's webhooks", () => {
  const prefix = uniquePrefix('whf');
  const attacker = `cmp_whf_slow_${prefix.slice(4)}`;
  const victim = `cmp_whf_fast_${prefix.slice(4)}`;
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let service: Awaited<ReturnType<typeof createWebhookService>>;
  /** Accepts every request and never answers (held until the sender gives up or the test ends). */
  let silent: Receiver;
  let open = 0;
  let fast: Receiver;
  let base = '';

  beforeAll(async () => {
    mongo = await testMongo();
    silent = await startReceiver((_r, res: ServerResponse) => {
      open++;
      res.on('close', () => open--);
    });
    fast = await startReceiver();
    service = await createWebhookService(
      webhookConfig.parse(
        testEnv(prefix, mongo.uri, {
          // the defaults of the limits: 4 per endpoint, 16 per company, 64 per replica
          WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
          WEBHOOK_RETRY_SCHEDULE_MS: '600000',
          WEBHOOK_POLL_MS: '50',
        }),
      ),
    );
    base = (await service.start()).url;
  });
  afterAll(async () => {
    await service?.stop();
    await silent?.close();
    await fast?.close();
    await deleteBrokerObjects(prefix);
    await mongo?.stop();
  });

  /** Milliseconds from queueing a ping to the victim's endpoint until its receiver has it. */
  async function victimPingMs(endpointId: string, call: ReturnType<typeof serviceCaller>) {
    const before = fast.received.length;
    const t0 = Date.now();
    expect((await call('POST', `/webhook-endpoints/${endpointId}/test`)).status).toBe(202);
    const got = await waitFor(() => fast.received.length > before && fast.received[before], {
      what: "the victim's ping",
      timeoutMs: 30_000,
    });
    return got.at - t0;
  }

  it("16 endpoints of one company on a receiver that never answers hold its share only: another company's ping arrives at once", async () => {
    const slow = serviceCaller(() => base, attacker);
    const ok = serviceCaller(() => base, victim);
    const endpoints: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) {
      const created = await slow('POST', '/webhook-endpoints/', { url: silent.url(`/slow-${i}`), event_types: ['*'] });
      expect(created.status).toBe(201);
      endpoints.push(created.body.id);
    }
    const mine = await ok('POST', '/webhook-endpoints/', { url: fast.url('/victim'), event_types: ['*'] });
    expect(mine.status).toBe(201);
    // 80 deliveries that each hold a slot until the timeout: more than the replica's 64 slots
    for (let round = 0; round < 5; round++)
      await Promise.all(endpoints.map(async (id) => expect((await slow('POST', `/webhook-endpoints/${id}/test`)).status).toBe(202)));
    await waitFor(() => open >= 16, { what: "the slow company's first attempts" });
    await new Promise((r) => setTimeout(r, 200));
    // the company's share, not the replica's
    expect(open).toBeLessThanOrEqual(16);
    expect(service.worker.share().of(attacker)).toBeLessThanOrEqual(16);
    expect(await victimPingMs(mine.body.id, ok)).toBeLessThan(1000);

    // once they timed out, its endpoints are slow: together they keep a quarter of the company's share
    await waitFor(() => silent.received.length > 16, { what: 'the attempts after the first timeouts', timeoutMs: 3 * TIMEOUT_MS });
    let most = 0;
    for (let i = 0; i < 20; i++) {
      most = Math.max(most, service.worker.share().of(attacker));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(4);
    expect(await victimPingMs(mine.body.id, ok)).toBeLessThan(1000);
    // the slow company's deliveries are not lost: still pending (retried later) or failed by their schedule, each once
    const log = await slow('GET', `/webhook-endpoints/${endpoints[0]}/deliveries`);
    expect(log.body.deliveries).toHaveLength(5);
  });
});
