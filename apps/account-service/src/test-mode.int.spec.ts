import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testStores, uniquePrefix } from '@inv/testing';
import type { Bus } from '@inv/bus';
import { asCompanyId, testTwinOf, type Messages } from '@inv/contracts';
import { accountConfig } from './config';
import { createAccountService } from './account-service';
import { DEMO_COMPANY_ID } from './usecases/bootstrap-demo-company';

jest.setTimeout(60_000);

/** Test mode in account-service (docs/test-mode.md): test keys, and the twin reading but never changing the live company. */
describe('account-service test mode', () => {
  const prefix = uniquePrefix();
  const bootstrapKey = 'ak_live_0123456789abcdef0123456789abcdef';
  const twin = testTwinOf(asCompanyId(DEMO_COMPANY_ID));
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createAccountService>>;
  let peer: Bus<Messages>;
  let url: string;

  const call = async (method: string, path: string, body?: unknown, company: string = DEMO_COMPANY_ID, role = 'owner') => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(company, { role })) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const verify = async (key: string) => {
    const res = await fetch(`${url}/internal/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await identityHeaders({ internal: true })) },
      body: JSON.stringify({ key }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    peer.serveRpc('document.template-exists.v1', async () => ({ exists: false }));
    await peer.start();
    const config = accountConfig.parse(testEnv(prefix, stores.mongoUrl, { ...stores.s3Env, BOOTSTRAP_API_KEY: bootstrapKey }));
    service = await createAccountService(config);
    url = (await service.start()).url;
  });
  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  it('creates ak_test_ keys with mode test, lists the mode, and verifies them to the live company with mode test', async () => {
    const created = await call('POST', '/company/api-keys', { name: 'sandbox', mode: 'test' });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ak_test_[0-9a-f]{32}$/);
    expect(created.body.mode).toBe('test');
    const live = await call('POST', '/company/api-keys', { name: 'erp' });
    expect(live.body.key).toMatch(/^ak_live_[0-9a-f]{32}$/);
    expect(live.body.mode).toBe('live');

    const listed = (await call('GET', '/company/api-keys')).body.api_keys as { name: string; mode: string }[];
    expect(listed.find((k) => k.name === 'sandbox')?.mode).toBe('test');
    expect(listed.find((k) => k.name === 'erp')?.mode).toBe('live');

    expect(await verify(created.body.key)).toMatchObject({ status: 200, body: { companyId: DEMO_COMPANY_ID, mode: 'test' } });
    expect(await verify(live.body.key)).toMatchObject({ status: 200, body: { companyId: DEMO_COMPANY_ID, mode: 'live' } });
  });

  it('refuses a mode it does not know with 400', async () => {
    const res = await call('POST', '/company/api-keys', { name: 'x', mode: 'sandbox' });
    expect(res.status).toBe(400);
  });

  it("lets the twin read the live company's profile, bank accounts, terms, members and keys", async () => {
    const live = await call('GET', '/company/');
    const asTwin = await call('GET', '/company/', undefined, twin);
    expect(asTwin.status).toBe(200);
    expect(asTwin.body.name).toBe(live.body.name);
    expect((await call('GET', '/company/bank-accounts', undefined, twin)).body).toEqual((await call('GET', '/company/bank-accounts')).body);
    expect((await call('GET', '/company/payment-terms', undefined, twin)).body).toEqual((await call('GET', '/company/payment-terms')).body);
    expect((await call('GET', '/members/', undefined, twin)).body.members.length).toBeGreaterThan(0);
    expect((await call('GET', '/company/api-keys', undefined, twin)).body.api_keys.length).toBeGreaterThan(0);
  });

  it('refuses every change of the live company through the twin with 403 TEST_MODE_READ_ONLY', async () => {
    const attempts: [string, string, unknown?][] = [
      ['PUT', '/company/', { name: 'Changed by a test key' }],
      ['POST', '/company/bank-accounts', { iban: 'DE89370400440532013000' }],
      ['POST', '/company/payment-terms', { name: 'x', days: 7 }],
      ['DELETE', '/company/logo'],
      ['POST', '/company/api-keys', { name: 'escalate' }],
      ['DELETE', '/company/api-keys/000000000000000000000000'],
      ['POST', '/members/', { email: 'x@example.com', role: 'admin' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, body, twin);
      expect({ method, path, status: res.status, code: res.body.error_code }).toEqual({
        method,
        path,
        status: 403,
        code: 'TEST_MODE_READ_ONLY',
      });
    }
    expect((await call('GET', '/company/')).body.name).not.toBe('Changed by a test key');
  });

  it('serves the live seller profile and plan to RPCs about the twin', async () => {
    const profile = await peer.callRpc('account.seller-profile.v1', twin, {});
    const liveProfile = await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {});
    expect(profile).toEqual(liveProfile);
    expect(await peer.callRpc('account.company-plan.v1', twin, {})).toEqual({ found: true, plan: 'pro' });
  });

  it('keeps an audit log of its own for the twin', async () => {
    const twinLog = await call('GET', '/audit-log/', undefined, twin);
    expect(twinLog.status).toBe(200);
    const entries = twinLog.body.entries ?? twinLog.body.audit_log ?? twinLog.body.items ?? [];
    expect(entries).toEqual([]);
  });
});

describe('DELETE /test-data in account-service', () => {
  const prefix = uniquePrefix();
  const live = asCompanyId(DEMO_COMPANY_ID);
  const twin = testTwinOf(live);
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createAccountService>>;
  let url: string;
  const del = async (company: string, role = 'admin') => {
    const res = await fetch(`${url}/test-data`, { method: 'DELETE', headers: await identityHeaders(company, { role }) });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    stores = await testStores();
    const config = accountConfig.parse(
      testEnv(prefix, stores.mongoUrl, { ...stores.s3Env, BOOTSTRAP_API_KEY: 'ak_live_abcdefabcdefabcdefabcdefabcdefab' }),
    );
    service = await createAccountService(config);
    url = (await service.start()).url;
  });
  afterAll(async () => {
    await service?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  it("removes the twin's audit log and leaves the live company's, repeatably; a live key or a member is refused", async () => {
    const db = service.runtime.conn.db!;
    await db.collection('audit_log').insertMany([
      { _id: `${twin}:1` as never, companyId: twin, seq: 1 },
      { _id: `${live}:99` as never, companyId: live, seq: 99 },
    ]);
    await db.collection('audit_heads').insertOne({ _id: twin as never, seq: 1, hash: 'x' });
    expect(await del(live)).toMatchObject({ status: 403, body: { error_code: 'FORBIDDEN' } });
    expect(await del(twin, 'member')).toMatchObject({ status: 403 });
    expect(await del(twin)).toEqual({ status: 200, body: { message: expect.any(String), deleted: { audit_log: 1, audit_heads: 1 } } });
    expect(await db.collection('audit_log').countDocuments({ _id: `${live}:99` as never })).toBe(1);
    expect(await db.collection('companies').countDocuments({ _id: live as never })).toBe(1);
    expect(await del(twin)).toMatchObject({ status: 200, body: { deleted: {} } });
  });
});
