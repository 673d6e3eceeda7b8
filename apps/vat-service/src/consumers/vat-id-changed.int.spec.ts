import { randomBytes, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { createBus, type Bus, type Envelope } from '@inv/bus';
import { messages, type Messages } from '@inv/contracts';
import { SIMULATOR_SCENARIO_VAT_IDS, startViesSimulator, type ViesSimulator } from '@inv/vies-simulator';
import { createVatService, vatConfig } from '../vat-service';

type VatChecked = Envelope<{
  customerId?: number;
  vatId: string;
  status: string;
  requestDate?: string;
  name?: string;
  address?: string;
  fault?: string;
}>;

/**
 * vat-service end to end on the bus: customer.vat-id-changed.v1 in, vat.checked.v1 out, VIES answered
 * by the simulator over SOAP, verdicts cached in Redis under a per-run prefix. Short VIES timeouts and
 * backoff keep it quick.
 */
describe('vat-service: customer.vat-id-changed.v1 -> VIES -> vat.checked.v1', () => {
  const id = randomBytes(5).toString('hex');
  const prefixes = { BUS_PREFIX: `t-${id}`, REDIS_PREFIX: `t-${id}:` };
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  let sim: ViesSimulator;
  let svc: Awaited<ReturnType<typeof createVatService>>;
  let peer: Bus<Messages>;
  const answers: VatChecked[] = [];

  const config = (extra: Record<string, string> = {}) =>
    vatConfig.parse({
      ...prefixes,
      PORT: '0',
      LOG_LEVEL: 'silent',
      BUS_RETRY_DELAYS_MS: '50,100',
      VIES_TIMEOUT_MS: '500',
      VIES_MAX_ATTEMPTS: '2',
      VIES_BACKOFF_MS: '20',
      ...extra,
    });

  beforeAll(async () => {
    sim = await startViesSimulator({ slowMs: 2_000 });
    svc = await createVatService(config({ VIES_URL: sim.url }));
    await svc.start();
    peer = createBus(messages, {
      url: 'amqp://guest:guest@127.0.0.1:5672',
      prefix: prefixes.BUS_PREFIX,
      service: 'test-peer',
      logger: silent,
      retryDelaysMs: [50, 100],
    });
    peer.onEvent('observer', ['vat.checked.v1'], async (msg) => {
      answers.push(msg as VatChecked);
    });
    await peer.start();
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    await svc?.runtime.bus.deleteAll();
    await peer?.stop();
    await peer?.deleteAll();
    await sim?.stop();
    const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const keys = await redis.keys(`${prefixes.REDIS_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }, 30_000);

  async function ask(customerId: number, vatId: string, opts: { forceRefresh?: boolean; id?: string } = {}): Promise<VatChecked> {
    const requestId = opts.id ?? randomUUID();
    await peer.publishEvent(
      'customer.vat-id-changed.v1',
      'company-v',
      { customerId, vatId, ...(opts.forceRefresh ? { forceRefresh: true } : {}) },
      { id: requestId },
    );
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = answers.find((a) => a.id === `vat-checked-${requestId}`);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no vat.checked.v1 for ${vatId}`);
      await new Promise((r) => setTimeout(r, 30));
    }
  }

  it('answers valid with the evidence VIES gave', async () => {
    const answer = await ask(1, SIMULATOR_SCENARIO_VAT_IDS.valid);
    expect(answer.companyId).toBe('company-v');
    expect(answer.data).toMatchObject({
      customerId: 1,
      vatId: SIMULATOR_SCENARIO_VAT_IDS.valid,
      status: 'valid',
      name: 'VIES TEST TRADER',
      requestDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}/),
    });
  });

  it('answers invalid for a number VIES does not know, and for a malformed number without asking VIES', async () => {
    expect((await ask(2, SIMULATOR_SCENARIO_VAT_IDS.invalid)).data.status).toBe('invalid');
    const before = sim.requestCount();
    const malformed = await ask(3, 'DE123');
    expect(malformed.data).toMatchObject({ status: 'invalid', fault: expect.any(String) });
    expect(sim.requestCount()).toBe(before);
  });

  it('never reports a transient fault as invalid: a member state that is down is unavailable, then valid once it is back', async () => {
    sim.setMemberStateDown('AT', true);
    const down = await ask(4, 'ATU13585627');
    expect(down.data).toMatchObject({ status: 'unavailable', fault: 'MS_UNAVAILABLE' });
    sim.setMemberStateDown('AT', false);
    // The forced re-check (GET /customer/{id}/vat-check) bypasses the briefly cached `unavailable`.
    const back = await ask(4, 'ATU13585627', { forceRefresh: true });
    expect(back.data).toMatchObject({ status: 'valid', vatId: 'ATU13585627' });
  });

  it('answers a repeated question from the cache, and a forced one from VIES', async () => {
    await ask(5, 'DE143454214');
    const before = sim.requestCount();
    expect((await ask(5, 'DE143454214')).data.status).toBe('valid');
    expect(sim.requestCount()).toBe(before);
    await ask(5, 'DE143454214', { forceRefresh: true });
    expect(sim.requestCount()).toBe(before + 1);
  });

  it('a redelivered request publishes an answer with the same envelope id', async () => {
    const requestId = randomUUID();
    await ask(6, SIMULATOR_SCENARIO_VAT_IDS.valid, { id: requestId });
    await ask(6, SIMULATOR_SCENARIO_VAT_IDS.valid, { id: requestId });
    await new Promise((r) => setTimeout(r, 200));
    const copies = answers.filter((a) => a.id === `vat-checked-${requestId}`);
    expect(copies.length).toBeGreaterThanOrEqual(1);
    expect(new Set(copies.map((c) => c.id)).size).toBe(1);
  });

  it('without VIES_URL it starts the simulator in-process', async () => {
    // the stand-in is given by the launcher and the tests: production code never imports the simulator
    const other = await createVatService(config({ BUS_PREFIX: `${prefixes.BUS_PREFIX}-x` }), { viesStandIn: () => startViesSimulator() });
    try {
      expect(other.simulator?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    } finally {
      await other.stop();
      await other.runtime.bus.deleteAll();
    }
  }, 30_000);

  it('without VIES_URL and without a stand-in it refuses to start', async () => {
    await expect(createVatService(config({ BUS_PREFIX: `${prefixes.BUS_PREFIX}-y` }))).rejects.toThrow(/VIES_URL is unset/);
  });
});
