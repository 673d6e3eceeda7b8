import { join } from 'node:path';
import Redis from 'ioredis';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { freeServicesPortOffset, spawnService, stopService, waitReady, type RunningService } from '@inv/runtime';
import { peerDataKeys } from '@inv/service-kit';
import { deleteBrokerObjects, testMongo } from '@inv/testing';
import { SIMULATOR_SCENARIO_VAT_IDS, startViesSimulator, type ViesSimulator } from '@inv/vies-simulator';
import { createCustomerService, eventually, http, testBus, testConfig, testPrefixes, type CustomerService } from './testing/harness';

/**
 * The VAT flow end to end: customer-service emits customer.vat-id-changed.v1 through its outbox,
 * vat-service asks the VIES simulator over SOAP and publishes vat.checked.v1, customer-service stores
 * the status with its evidence, shows it in GET /customer/{id} and /vat-check and answers it in the
 * billing snapshot that finalization reads.
 *
 * customer-service runs in-process; vat-service runs as its own process (as deployed), so this app never
 * imports the other. The VIES simulator runs in-process so the test can take a member state down.
 */
describe('VAT check flow: customer-service + vat-service + VIES simulator', () => {
  const prefixes = testPrefixes();
  // vat-service listens on 3005 + offset: a random offset keeps it clear of a dev stack and of parallel runs.
  let portOffset = 0; // chosen in beforeAll: every service port free, below the ephemeral range
  let sim: ViesSimulator;
  let mongo: Awaited<ReturnType<typeof testMongo>> | undefined;
  let customers: CustomerService;
  let vat: RunningService | undefined;
  let peer: Bus<Messages>;
  let call: ReturnType<typeof http>;

  beforeAll(async () => {
    portOffset = await freeServicesPortOffset();
    sim = await startViesSimulator({ slowMs: 2_000 });
    // MONGO_URL when set, else an embedded server (customer-service's; vat-service keeps no data)
    mongo = await testMongo();
    vat = spawnService('vat', {
      root: join(__dirname, '../../..'),
      services: ['vat'],
      env: {
        ...process.env,
        ...prefixes,
        LOG_LEVEL: 'silent',
        BUS_RETRY_DELAYS_MS: '50,100',
        VIES_URL: sim.url,
        VIES_TIMEOUT_MS: '500',
        VIES_MAX_ATTEMPTS: '2',
        VIES_BACKOFF_MS: '20',
      },
      portOffset,
      stdio: 'ignore',
    });
    customers = await createCustomerService(testConfig(prefixes, { MONGO_URL: mongo.uri }));
    // vat-service declares its queue before it reports ready, so no vat-id-changed event is missed.
    await waitReady(vat, 60_000);
    const { url } = await customers.start();
    peer = testBus(prefixes.BUS_PREFIX);
    await peer.start();
    call = http(url, 'company-vat-flow');
  }, 90_000);

  afterAll(async () => {
    await customers?.stop();
    if (vat) await stopService(vat);
    await customers?.runtime.bus.deleteAll();
    await peer?.stop();
    await peer?.deleteAll();
    // What the vat-service process declared under our prefix (it cannot be asked to delete it itself).
    await deleteBrokerObjects(prefixes.BUS_PREFIX);
    await mongo?.stop();
    await sim?.stop();
    const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const keys = await redis.keys(`${prefixes.REDIS_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }, 30_000);

  const statusOf = async (id: number, wanted: string) =>
    eventually(
      async () => {
        const res = await call('GET', `/customer/${id}`);
        return res.body.vat_check.status === wanted ? res.body : undefined;
      },
      15_000,
      `VAT status ${wanted} of customer ${id}`,
    );

  it('a valid VAT ID becomes valid, with the VIES evidence, in the customer and the billing snapshot', async () => {
    const id = (await call('POST', '/customer/', { body: { organization_name: 'Valid AG', vat_id: SIMULATOR_SCENARIO_VAT_IDS.valid } }))
      .body.id;
    const customer = await statusOf(id, 'valid');
    expect(customer.vat_check).toMatchObject({
      vat_id: SIMULATOR_SCENARIO_VAT_IDS.valid,
      name: 'VIES TEST TRADER',
      address: 'TEST STREET 1, 1000 TEST CITY',
      request_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}/),
      checked_at: expect.any(String),
    });
    const snap = await peer.callRpc('customer.billing-snapshot.v1', 'company-vat-flow', { customerId: id });
    expect(snap.vatStatus).toBe('valid');
  });

  it('an unknown VAT ID becomes invalid', async () => {
    const id = (await call('POST', '/customer/', { body: { organization_name: 'Invalid AG', vat_id: SIMULATOR_SCENARIO_VAT_IDS.invalid } }))
      .body.id;
    await statusOf(id, 'invalid');
  });

  it('a member state that is down gives unavailable (never invalid); after it is back, GET /vat-check re-checks to valid', async () => {
    sim.setMemberStateDown('AT', true);
    const id = (await call('POST', '/customer/', { body: { organization_name: 'Wien GmbH', vat_id: 'ATU13585627' } })).body.id;
    const down = await statusOf(id, 'unavailable');
    expect(down.vat_check.fault).toBe('MS_UNAVAILABLE');
    sim.setMemberStateDown('AT', false);
    const check = await call('GET', `/customer/${id}/vat-check`);
    expect(check.body).toMatchObject({ status: 'unavailable', check_requested: true });
    await statusOf(id, 'valid');
    expect((await call('GET', `/customer/${id}/vat-check`)).body).toMatchObject({ status: 'valid', vat_id: 'ATU13585627', fault: null });
  });

  it('changing the VAT ID makes the status pending until the new answer; a stale answer for the old ID is ignored', async () => {
    const id = (await call('POST', '/customer/', { body: { organization_name: 'Change KG', vat_id: SIMULATOR_SCENARIO_VAT_IDS.valid } }))
      .body.id;
    await statusOf(id, 'valid');
    const put = await call('PUT', `/customer/${id}`, { body: { vat_id: SIMULATOR_SCENARIO_VAT_IDS.invalid } });
    expect(['pending', 'invalid']).toContain(put.body.vat_check.status);
    await statusOf(id, 'invalid');
    // A late answer for the previous VAT ID must not overwrite the current one.
    await peer.publishEvent('vat.checked.v1', 'company-vat-flow', {
      customerId: id,
      vatId: SIMULATOR_SCENARIO_VAT_IDS.valid,
      status: 'valid',
      checkedAt: new Date().toISOString(),
    });
    // ...while an answer for the current one is applied (so the stale one had its chance to be processed first).
    await peer.publishEvent('vat.checked.v1', 'company-vat-flow', {
      customerId: id,
      vatId: SIMULATOR_SCENARIO_VAT_IDS.invalid,
      status: 'invalid',
      checkedAt: new Date().toISOString(),
      fault: 'MARKER',
    });
    const after = await eventually(async () => {
      const res = await call('GET', `/customer/${id}`);
      return res.body.vat_check.fault === 'MARKER' ? res.body : undefined;
    });
    expect(after.vat_check).toMatchObject({ status: 'invalid', vat_id: SIMULATOR_SCENARIO_VAT_IDS.invalid });
  });

  it("an answer for another company's customer id changes nothing", async () => {
    const id = (
      await call('POST', '/customer/', { body: { organization_name: 'Tenant GmbH', vat_id: SIMULATOR_SCENARIO_VAT_IDS.invalid } })
    ).body.id;
    await statusOf(id, 'invalid');
    await peer.publishEvent('vat.checked.v1', 'company-intruder', {
      customerId: id,
      vatId: SIMULATOR_SCENARIO_VAT_IDS.invalid,
      status: 'valid',
      checkedAt: new Date().toISOString(),
    });
    await peer.publishEvent('vat.checked.v1', 'company-vat-flow', {
      customerId: id,
      vatId: SIMULATOR_SCENARIO_VAT_IDS.invalid,
      status: 'invalid',
      checkedAt: new Date().toISOString(),
      fault: 'MARKER2',
    });
    await eventually(async () => ((await call('GET', `/customer/${id}`)).body.vat_check.fault === 'MARKER2' ? true : undefined));
    expect((await call('GET', `/customer/${id}`)).body.vat_check.status).toBe('invalid');
  });

  it("deletes invoice-service's change token of the customer's billing data: before a PUT is answered, and when a verdict is stored", async () => {
    const id = (await call('POST', '/customer/', { body: { organization_name: 'Token KG', vat_id: SIMULATOR_SCENARIO_VAT_IDS.valid } }))
      .body.id;
    await statusOf(id, 'valid');
    const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1, keyPrefix: prefixes.REDIS_PREFIX });
    const token = peerDataKeys.buyer('company-vat-flow', id);
    try {
      await redis.set(token, 'a copy was made');
      expect((await call('PUT', `/customer/${id}`, { body: { organization_name: 'Token Neu KG' } })).status).toBe(200);
      expect(await redis.get(token)).toBeNull(); // invoice-service's next lookup asks customer-service
      await redis.set(token, 'a copy was made');
      await peer.publishEvent('vat.checked.v1', 'company-vat-flow', {
        customerId: id,
        vatId: SIMULATOR_SCENARIO_VAT_IDS.valid,
        status: 'invalid',
        checkedAt: new Date().toISOString(),
      });
      await statusOf(id, 'invalid');
      await eventually(async () => ((await redis.get(token)) === null ? true : undefined), 5_000, 'the token deleted');
      // another customer's token stays
      const other = peerDataKeys.buyer('company-vat-flow', id + 1000);
      await redis.set(other, 'a copy was made');
      expect((await call('PUT', `/customer/${id}`, { body: { organization_name: 'Token Neuer KG' } })).status).toBe(200);
      expect(await redis.get(other)).toBe('a copy was made');
    } finally {
      await redis.quit();
    }
  });
});
