import { createServer } from 'node:net';
import sharp from 'sharp';
import { apiKeyRevokedChannel, connectRedis, peerDataKeys } from '@inv/service-kit';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testStores, uniquePrefix, waitFor } from '@inv/testing';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { accountConfig } from './config';
import { createAccountService } from './account-service';
import { DEMO_COMPANY_ID } from './usecases/bootstrap-demo-company';

jest.setTimeout(60_000);

describe('account-service', () => {
  const prefix = uniquePrefix();
  const bootstrapKey = 'ak_live_00112233445566778899aabbccddeeff';
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createAccountService>>;
  let peer: Bus<Messages>;
  let url: string;
  const companyEvents: string[] = [];
  const profileChanges: string[] = [];
  const termChanges: any[] = [];
  const vatChanges: any[] = [];
  let customersUsingTerm = 0;
  const mails: any[] = [];
  const accountEvents: any[] = [];

  const verify = async (
    key: unknown,
    identity: Record<string, string> | Promise<Record<string, string>> = identityHeaders({ internal: true }),
  ) => {
    const res = await fetch(`${url}/internal/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await identity) },
      body: JSON.stringify({ key }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const call = async (method: string, path: string, body?: unknown, company = DEMO_COMPANY_ID, role?: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(company, { role })) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    peer.onEvent('company-log', ['company.created.v1', 'company.profile-changed.v1'], async (msg) => {
      if (msg.type === 'company.created.v1') companyEvents.push(msg.id);
      else profileChanges.push((msg.data as { fields: string[] }).fields.join(','));
    });
    peer.onEvent('term-log', ['company.payment-terms-changed.v1', 'company.vat-id-changed.v1'], async (msg) => {
      (msg.type === 'company.vat-id-changed.v1' ? vatChanges : termChanges).push(msg.data);
    });
    peer.onCommand('mail.send.v1', async (msg) => void mails.push(msg));
    peer.onEvent(
      'member-log',
      ['member.invited.v1', 'member.role-changed.v1', 'member.removed.v1', 'api-key.created.v1', 'api-key.revoked.v1'],
      async (msg) => void accountEvents.push(msg),
    );
    peer.serveRpc('customer.payment-term-usage.v1', async () => ({ customers: customersUsingTerm }));
    peer.serveRpc('document.template-exists.v1', async (msg) => ({ exists: (msg.data as { templateId: number }).templateId === 7 }));
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

  it('bootstraps the demo company once, announces it, and accepts the key', async () => {
    expect(await verify(bootstrapKey)).toMatchObject({
      status: 200,
      body: { companyId: DEMO_COMPANY_ID, keyId: expect.any(String), plan: 'pro' },
    });
    await waitFor(() => companyEvents.length === 1, { what: 'company.created event' });
    const again = await createAccountService(
      accountConfig.parse(testEnv(prefix, stores.mongoUrl, { ...stores.s3Env, BOOTSTRAP_API_KEY: bootstrapKey })),
    );
    await again.start();
    await again.stop();
    const profile = await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {});
    expect(profile.seller).toMatchObject({ vatId: 'DE123456789', taxNumber: expect.any(String), address: { countryCode: 'DE' } });
    expect(profile.payment).toMatchObject({ meansCode: '58', iban: expect.stringMatching(/^DE/), bic: expect.any(String) });
  });

  it('is not ready until the bootstrap key works: the first request a launcher lets through is never refused', async () => {
    const fresh = uniquePrefix(); // its own database: the whole bootstrap runs again
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const starting = await createAccountService(
      accountConfig.parse(testEnv(fresh, stores.mongoUrl, { ...stores.s3Env, BOOTSTRAP_API_KEY: bootstrapKey, PORT: String(port) })),
    );
    const started = starting.start();
    try {
      const base = `http://127.0.0.1:${port}`;
      const ready = await waitFor(
        async () => {
          const res = await fetch(`${base}/readyz`).catch(() => undefined);
          return res?.status === 200 ? ((await res.json()) as { checks: Record<string, boolean> }) : undefined;
        },
        { intervalMs: 2, what: 'readiness' },
      );
      expect(ready.checks).toMatchObject({ bootstrap: true });
      // at once, as the launcher's banner and the tests do
      const res = await fetch(`${base}/internal/auth/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await identityHeaders({ internal: true })) },
        body: JSON.stringify({ key: bootstrapKey }),
      });
      expect(res.status).toBe(200);
    } finally {
      await started.catch(() => undefined);
      await starting.stop();
      await deleteBrokerObjects(fresh);
    }
  });

  it('stores keys only as SHA-256 hashes', async () => {
    const stored = await service.runtime.conn.collection('api_keys').find({}).toArray();
    expect(JSON.stringify(stored)).not.toContain(bootstrapKey);
    expect(stored[0].hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects missing, malformed and unknown keys alike', async () => {
    for (const key of [undefined, 42, 'ak_live_xyz', `ak_live_${'f'.repeat(32)}`]) expect((await verify(key)).status).toBe(401);
  });

  it('creates keys up to 10, lists them without secrets, and revokes at once', async () => {
    const created = await call('POST', '/company/api-keys', { name: 'ci' });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^ak_live_[0-9a-f]{32}$/);
    expect((await verify(created.body.key)).status).toBe(200);
    const list = await call('GET', '/company/api-keys');
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect(list.body.api_keys.map((k: { prefix: string }) => k.prefix)).toContain(created.body.key.slice(0, 12));
    expect((await call('DELETE', `/company/api-keys/${created.body.id}`)).status).toBe(200);
    expect((await verify(created.body.key)).status).toBe(401);
    expect((await call('DELETE', `/company/api-keys/${created.body.id}`)).status).toBe(404);
    for (let i = 0; i < 9; i++) expect((await call('POST', '/company/api-keys', { name: `k${i}` })).status).toBe(201);
    const eleventh = await call('POST', '/company/api-keys', { name: 'one too many' });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.code).toBe('API_KEY_LIMIT_REACHED');
    expect((await call('POST', '/company/api-keys', { name: '' })).status).toBe(400);
  });

  it('refuses direct calls without the gateway identity, and /internal/* to company identities', async () => {
    const bare = await fetch(`${url}/company/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-company-id': DEMO_COMPANY_ID },
      body: '{"name":"mint"}',
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('content-type')).toContain('application/problem+json');
    expect((await verify(bootstrapKey, {})).status).toBe(401);
    expect((await verify(bootstrapKey, identityHeaders(DEMO_COMPANY_ID))).status).toBe(401);
  });

  it('writes last_used_at at most once a minute per key', async () => {
    const keys = () => service.runtime.conn.collection('api_keys').findOne({ name: 'bootstrap' });
    await service.runtime.conn.collection('api_keys').updateOne({ name: 'bootstrap' }, { $unset: { lastUsedAt: '' } });
    expect((await verify(bootstrapKey)).status).toBe(200);
    const first = await waitFor(async () => (await keys())?.lastUsedAt as Date | undefined, { what: 'last_used_at' });
    for (let i = 0; i < 5; i++) expect((await verify(bootstrapKey)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(((await keys())?.lastUsedAt as Date).getTime()).toBe(first.getTime());
  });

  it('holds the 10-active-keys limit under 30 concurrent creations', async () => {
    const company = `cmp_race_${prefix}`;
    await service.runtime.conn.collection('companies').insertOne({
      _id: company as never,
      name: 'Race GmbH',
      legalName: 'Race GmbH',
      address: { line1: 'x', postalCode: '1', city: 'y', countryCode: 'DE' },
      plan: 'pro',
      paymentTermDays: 14,
      createdAt: new Date(),
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call('POST', '/company/api-keys', { name: `race ${i}` }, company)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    const active = await service.runtime.conn.collection('api_keys').countDocuments({ companyId: company, revokedAt: { $exists: false } });
    expect(active).toBe(10);
    // a revoked key frees its slot
    const one = answers.find((a) => a.status === 201)!;
    expect((await call('DELETE', `/company/api-keys/${one.body.id}`, undefined, company)).status).toBe(200);
    expect((await call('POST', '/company/api-keys', { name: 'after revoke' }, company)).status).toBe(201);
    expect((await call('POST', '/company/api-keys', { name: 'over' }, company)).status).toBe(409);
  });

  it('deactivates every key on a downgrade from Pro (announced to the gateways), reactivates none on an upgrade, and needs Pro for new keys', async () => {
    const company = `cmp_plan_${prefix}`;
    await service.runtime.conn.collection('companies').insertOne({
      _id: company as never,
      name: 'Plan GmbH',
      legalName: 'Plan GmbH',
      address: { line1: 'x', postalCode: '1', city: 'y', countryCode: 'DE' },
      plan: 'pro',
      paymentTermDays: 14,
      createdAt: new Date(),
    });
    const viewer = await call('POST', '/company/api-keys', { name: 'reporting', role: 'viewer' }, company);
    const admin = await call('POST', '/company/api-keys', { name: 'erp' }, company);
    expect(viewer.body).toMatchObject({ role: 'viewer' });
    expect(await verify(viewer.body.key)).toMatchObject({ status: 200, body: { companyId: company, role: 'viewer' } });
    expect(await verify(admin.body.key)).toMatchObject({ status: 200, body: { role: 'admin' } });
    const owner = await call('POST', '/company/api-keys', { name: 'x', role: 'owner' }, company);
    expect(owner).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });

    const { default: Redis } = await import('ioredis');
    const sub = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const announced: string[] = [];
    sub.on('message', (_c: string, m: string) => announced.push(JSON.parse(m).keyId));
    await sub.subscribe(apiKeyRevokedChannel(`${prefix}:`));
    try {
      await peer.publishEvent('company.plan-changed.v1', company, { plan: 'free', previousPlan: 'pro', version: 1 }, { id: 'plan-down-1' });
      await waitFor(async () => (await verify(admin.body.key)).status === 401, { what: 'keys deactivated' });
      expect((await verify(viewer.body.key)).status).toBe(401);
      await waitFor(() => announced.length === 2, { what: 'revocations announced' });
      expect(announced.sort()).toEqual([admin.body.id, viewer.body.id].sort());
      const listed = await call('GET', '/company/api-keys', undefined, company);
      expect(listed.body.api_keys.map((k: any) => [k.active, k.revoked_reason])).toEqual([
        [false, 'plan_downgrade'],
        [false, 'plan_downgrade'],
      ]);
      const onFree = await call('POST', '/company/api-keys', { name: 'on free' }, company);
      expect(onFree).toMatchObject({ status: 403, body: { code: 'PLAN_REQUIRED' } });

      await peer.publishEvent('company.plan-changed.v1', company, { plan: 'pro', previousPlan: 'free', version: 2 }, { id: 'plan-up-2' });
      await waitFor(async () => (await service.runtime.conn.collection('companies').findOne({ _id: company as never }))?.plan === 'pro', {
        what: 'upgrade applied',
      });
      expect((await verify(admin.body.key)).status).toBe(401);
      // an older announcement arriving late changes nothing
      await peer.publishEvent(
        'company.plan-changed.v1',
        company,
        { plan: 'free', previousPlan: 'pro', version: 1 },
        { id: 'plan-down-late' },
      );
      const fresh = await waitFor(
        async () => {
          const r = await call('POST', '/company/api-keys', { name: 'after upgrade' }, company);
          return r.status === 201 && r;
        },
        { what: 'a new key after the upgrade' },
      );
      await peer.publishEvent(
        'company.plan-changed.v1',
        company,
        { plan: 'pro', previousPlan: 'pro', version: 3 },
        { id: 'plan-sentinel-3' },
      );
      await waitFor(
        async () => (await service.runtime.conn.collection('companies').findOne({ _id: company as never }))?.planVersion === 3,
        { what: 'sentinel applied' },
      );
      expect((await verify(fresh.body.key)).status).toBe(200);
    } finally {
      sub.disconnect();
    }
  });

  it('invites members by e-mail with a single-use link, changes roles and always keeps an owner', async () => {
    const company = `cmp_members_${prefix.replace(/-/g, '_')}`;
    const created = await peer.callRpc('account.create-company.v1', company, {
      name: 'Team GmbH',
      ownerEmail: 'boss@team.example',
      plan: 'pro',
    });
    expect(created).toMatchObject({ companyId: company, created: true, apiKey: expect.stringMatching(/^ak_live_/) });
    const listed = await call('GET', '/members/', undefined, company);
    expect(listed.body.members).toEqual([expect.objectContaining({ email: 'boss@team.example', role: 'owner', status: 'invited' })]);
    const ownerId = listed.body.members[0].id;

    const invited = await call('POST', '/members/', { email: ' Anna@Team.example ', role: 'admin' }, company, 'owner');
    expect(invited).toMatchObject({
      status: 201,
      body: { email: 'anna@team.example', role: 'admin', status: 'invited', invitation_expires_at: expect.any(String) },
    });
    const days = (Date.parse(invited.body.invitation_expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const mail = await waitFor(() => mails.find((m) => m.data.to[0] === 'anna@team.example'), { what: 'invitation e-mail' });
    expect(mail.data).toMatchObject({ subjectRef: `member:${invited.body.id}`, subject: expect.stringContaining('Team GmbH') });
    const token = /accept-invitation#token=([\w-]{43})/.exec(mail.data.text)![1];
    const stored = await service.runtime.conn.collection('members').findOne({ email: 'anna@team.example' });
    expect(JSON.stringify(stored)).not.toContain(token);
    // accepting sets the password (argon2id) once and signs the member in; then the member signs in with it
    const auth = async (
      path: string,
      body: unknown,
      identity: Record<string, string> | Promise<Record<string, string>> = identityHeaders({ internal: true }),
    ) => {
      const res = await fetch(`${url}/auth/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await identity) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? undefined : ((await res.json()) as any) };
    };
    // the invitation page names the company and the address of an open invitation, and nothing for any other token
    expect(await auth('invitations/lookup', { token })).toMatchObject({
      status: 200,
      body: { company_name: 'Team GmbH', email: 'anna@team.example', role: 'admin' },
    });
    const unknown = await auth('invitations/lookup', { token: 'A'.repeat(43) });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).not.toContain('Team GmbH');
    expect((await auth('invitations/lookup', { token, extra: 1 })).status).toBe(400);
    expect((await auth('invitations/accept', { token, password: 'short' })).status).toBe(400);
    const joined = await auth('invitations/accept', { token, password: 'correct horse battery' });
    expect(joined).toMatchObject({
      status: 201,
      body: {
        session_token: expect.stringMatching(/^ms_[0-9a-f]{64}$/),
        access_token: expect.stringMatching(/^mt_[0-9a-f]{64}$/),
        mode: 'live',
        member: { id: invited.body.id, email: 'anna@team.example', role: 'admin' },
        company: { id: company, name: 'Team GmbH', plan: 'pro' },
      },
    });
    expect((await auth('invitations/accept', { token, password: 'correct horse battery' })).status).toBe(404);
    expect((await auth('invitations/lookup', { token })).status).toBe(404); // used
    const storedAfter = await service.runtime.conn.collection('members').findOne({ email: 'anna@team.example' });
    expect(storedAfter?.passwordHash).toMatch(/^\$argon2id\$/);
    const signedIn = await auth('sessions', { email: 'ANNA@team.example', password: 'correct horse battery' });
    expect(signedIn).toMatchObject({ status: 201, body: { member: { role: 'admin' }, company: { id: company, name: 'Team GmbH' } } });
    // only hashes are stored: neither the session's secret nor an access token is in the database
    const sessionsStored = JSON.stringify(await service.runtime.conn.collection('member_sessions').find({}).toArray());
    const tokensStored = JSON.stringify(await service.runtime.conn.collection('member_access_tokens').find({}).toArray());
    for (const secret of [signedIn.body.session_token, signedIn.body.access_token, joined.body.session_token]) {
      expect(sessionsStored + tokensStored).not.toContain(secret);
      expect(sessionsStored + tokensStored).not.toContain(secret.slice(3));
    }
    // the access token verifies like a key: the member, the role as it is now, the session's key id, an expiry
    expect(await verify(signedIn.body.access_token)).toMatchObject({
      status: 200,
      body: { companyId: company, memberId: invited.body.id, role: 'admin', keyId: expect.stringMatching(/^mses_/), mode: 'live' },
    });
    const refreshed = await auth('sessions/refresh', { session_token: signedIn.body.session_token, mode: 'test' });
    expect(refreshed).toMatchObject({ status: 200, body: { mode: 'test', member: { role: 'admin' } } });
    expect(refreshed.body.session_token).toBeUndefined();
    expect((await verify(refreshed.body.access_token)).body).toMatchObject({ companyId: company, mode: 'test' });
    expect((await auth('sessions', { email: 'anna@team.example', password: 'wrong horse battery' })).status).toBe(401);
    expect((await auth('sessions', { email: 'nobody@team.example', password: 'correct horse battery' })).status).toBe(401);
    expect((await auth('sessions', { email: 'anna@team.example', pasword: 'x' })).body.code).toBe('UNKNOWN_FIELD');
    // a malformed secret is refused without being repeated in the answer
    const malformed = await auth('sessions/refresh', { session_token: 'ms_secret-looking-value' });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).not.toContain('secret-looking-value');
    // wrong passwords count per address: the 10th within 15 minutes stops even the right one, on any replica
    for (let i = 0; i < 9; i++)
      expect((await auth('sessions', { email: 'anna@team.example', password: `wrong ${i} horse` })).status).toBe(401);
    const limited = await auth('sessions', { email: 'Anna@Team.example', password: 'correct horse battery' });
    expect(limited).toMatchObject({ status: 429, body: { code: 'TOO_MANY_SIGN_IN_ATTEMPTS' } });
    await service.runtime.conn.collection('sign_in_failures').deleteMany({});
    expect((await auth('sessions', { email: 'anna@team.example', password: 'correct horse battery' })).status).toBe(201);
    // signing out ends the session and its tokens
    expect((await auth('sessions/revoke', { session_token: signedIn.body.session_token })).status).toBe(200);
    expect((await verify(signedIn.body.access_token)).status).toBe(401);
    expect((await verify(refreshed.body.access_token)).status).toBe(401);
    expect((await auth('sessions/refresh', { session_token: signedIn.body.session_token })).status).toBe(401);
    expect((await auth('sessions/revoke', { session_token: signedIn.body.session_token })).status).toBe(200);
    // the session that accepting the invitation opened still holds
    expect((await auth('sessions/refresh', { session_token: joined.body.session_token })).status).toBe(200);
    // the old internal sign-in routes are gone: the dashboard signs in through the public API
    expect(
      (
        await fetch(`${url}/internal/members/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(await identityHeaders({ internal: true })) },
          body: '{}',
        })
      ).status,
    ).toBe(404);
    // the owner the operator created got an invitation too
    const ownerMail = await waitFor(() => mails.find((m) => m.data.to[0] === 'boss@team.example'), { what: 'owner invitation' });
    expect(ownerMail.data.text).toMatch(/accept-invitation#token=[\w-]{43}/);

    expect((await call('POST', '/members/', { email: 'anna@team.example' }, company, 'owner')).body.code).toBe('MEMBER_EXISTS');
    expect((await call('POST', '/members/', { email: 'not-an-address' }, company, 'owner')).status).toBe(400);
    expect((await call('POST', '/members/', { email: 'x@team.example', role: 'owner' }, company, 'admin')).status).toBe(403);

    // the only owner can neither leave nor lose the role
    expect((await call('DELETE', `/members/${ownerId}`, undefined, company, 'owner')).body.code).toBe('LAST_OWNER');
    expect((await call('PUT', `/members/${ownerId}`, { role: 'admin' }, company, 'owner')).body.code).toBe('LAST_OWNER');
    // an admin may not make owners; an owner may
    expect((await call('PUT', `/members/${invited.body.id}`, { role: 'owner' }, company, 'admin')).status).toBe(403);
    expect((await call('PUT', `/members/${invited.body.id}`, { role: 'owner' }, company, 'owner')).body.role).toBe('owner');
    // two owners demoting each other at once: one of them stays owner
    const both = await Promise.all([
      call('PUT', `/members/${ownerId}`, { role: 'viewer' }, company, 'owner'),
      call('PUT', `/members/${invited.body.id}`, { role: 'viewer' }, company, 'owner'),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const owners = (await call('GET', '/members/', undefined, company)).body.members.filter((m: any) => m.role === 'owner');
    expect(owners).toHaveLength(1);
    const other = (await call('GET', '/members/', undefined, company)).body.members.find((m: any) => m.role !== 'owner');
    expect((await call('DELETE', `/members/${other.id}`, undefined, company, 'owner')).status).toBe(200);
    expect((await call('DELETE', `/members/${other.id}`, undefined, company, 'owner')).status).toBe(404);
    // a removed member's session and access tokens stop working (the dashboard signs the browser out)
    if (other.id === invited.body.id) {
      expect((await auth('sessions/refresh', { session_token: joined.body.session_token })).status).toBe(401);
      expect((await verify(joined.body.access_token)).status).toBe(401);
    }
    expect((await call('DELETE', '/members/nope', undefined, 'cmp_other')).status).toBe(404);
    await waitFor(() => accountEvents.some((e) => e.type === 'member.removed.v1' && e.companyId === company), { what: 'member events' });
    const invitedEvent = accountEvents.find((e) => e.type === 'member.invited.v1' && e.companyId === company);
    expect(invitedEvent.actor).toMatchObject({ keyId: 'test-key', role: 'owner' });
  });

  it('keeps an append-only, hash-chained audit log of the events, with actor, filters and cursor pages, and finds a tampered entry', async () => {
    const company = `cmp_audit_${prefix.replace(/-/g, '_')}`;
    const created = await peer.callRpc('account.create-company.v1', company, {
      name: 'Audit GmbH',
      ownerEmail: 'boss@audit.example',
      plan: 'pro',
    });
    const actor = { keyId: created.keyId!, role: 'owner', requestId: 'req-42', clientIp: '203.0.113.9' };
    await peer.publishEvent(
      'product.changed.v1',
      company,
      { productId: 7, action: 'updated', fields: ['name', 'unit_net_amount'] },
      { id: 'audit-1', actor, occurredAt: '2026-11-20T10:00:00.000Z' },
    );
    const finalized = {
      invoiceId: 42,
      number: 'RE-1',
      typeCode: '380' as const,
      customerId: 1,
      invoiceDate: '2026-11-21',
      currency: 'EUR',
      totalNet: '100.00',
      totalVat: '19.00',
      totalGross: '119.00',
      reservationId: 'r@2026-11',
    };
    await peer.publishEvent('invoice.finalized.v1', company, finalized, { id: 'audit-2', actor, occurredAt: '2026-11-21T10:00:00.000Z' });
    await peer.publishEvent(
      'invoice.status-changed.v1',
      company,
      { invoiceId: 42, customerId: 1, status: 'PAID' },
      { id: 'audit-3', occurredAt: '2026-11-22T10:00:00.000Z' },
    );
    await peer.publishEvent(
      'invoice.status-changed.v1',
      company,
      { invoiceId: 42, customerId: 1, status: 'PAID' },
      { id: 'audit-3', occurredAt: '2026-11-22T10:00:00.000Z' },
    ); // redelivered
    const all = await waitFor(
      async () => {
        const r = await call('GET', '/audit-log/?limit=100', undefined, company);
        return r.body.entries?.length >= 5 && r.body.entries;
      },
      { what: 'five audit entries' },
    );
    await new Promise((r) => setTimeout(r, 300)); // a duplicate would have arrived by now
    expect((await call('GET', '/audit-log/?limit=100', undefined, company)).body.entries).toHaveLength(5);
    expect(all.map((e: any) => e.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(all.map((e: any) => e.action).sort()).toEqual([
      'api_key.created',
      'company.created',
      'invoice.finalized',
      'invoice.status_paid',
      'product.updated',
    ]);
    const product = all.find((e: any) => e.action === 'product.updated');
    expect(product).toMatchObject({
      resource_type: 'product',
      resource_id: '7',
      fields: ['name', 'unit_net_amount'],
      at: '2026-11-20T10:00:00.000Z',
      actor: { key_id: created.keyId, key_name: 'created by the operator', role: 'owner', request_id: 'req-42', client_ip: '203.0.113.9' },
    });
    expect(JSON.stringify(all)).not.toContain(created.apiKey);
    for (let i = 1; i < all.length; i++) expect(all[i - 1].prev_hash).toBe(all[i].hash);

    const q = async (query: string) => (await call('GET', `/audit-log/?${query}`, undefined, company)).body;
    expect((await q('resource_type=invoice&resource_id=42')).entries.map((e: any) => e.action).sort()).toEqual([
      'invoice.finalized',
      'invoice.status_paid',
    ]);
    expect((await q('action=product.updated')).entries).toHaveLength(1);
    expect((await q(`actor=${created.keyId}`)).entries).toHaveLength(2);
    expect((await q('from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z')).entries.map((e: any) => e.action)).toEqual(['invoice.finalized']);
    const first = await q('limit=2');
    expect(first.entries.map((e: any) => e.seq)).toEqual([5, 4]);
    const second = await q(`limit=2&cursor=${first.next_cursor}`);
    expect(second.entries.map((e: any) => e.seq)).toEqual([3, 2]);
    expect((await q(`limit=2&cursor=${second.next_cursor}`)).next_cursor).toBeNull();
    expect((await call('GET', '/audit-log/?limit=1000', undefined, company)).status).toBe(400);
    expect((await call('GET', '/audit-log/?from=yesterday', undefined, company)).status).toBe(400);
    expect((await call('GET', '/audit-log/', undefined, 'cmp_someone_else')).body.entries).toEqual([]);

    expect((await call('GET', '/audit-log/verify', undefined, company)).body).toEqual({
      valid: true,
      entries: 5,
      first_invalid_seq: null,
      reason: null,
    });
    await service.runtime.conn.collection('audit_log').updateOne({ _id: `${company}:3` as never }, { $set: { fields: ['tampered'] } });
    expect((await call('GET', '/audit-log/verify', undefined, company)).body).toMatchObject({
      valid: false,
      first_invalid_seq: 3,
      reason: expect.stringContaining('changed'),
    });
  });

  it('records the changes of recurring invoices, suppliers and received documents in the audit log', async () => {
    const company = `cmp_more_${prefix.replace(/-/g, '_')}`;
    await peer.callRpc('account.create-company.v1', company, { name: 'More GmbH', ownerEmail: 'boss@more.example', plan: 'pro' });
    const actions = ['created', 'updated', 'paused', 'resumed', 'deleted'] as const;
    for (const action of actions)
      await peer.publishEvent('recurring-invoice.changed.v1', company, {
        recurringId: 3,
        action,
        fields: action === 'updated' ? ['name'] : [],
      });
    for (const action of ['created', 'updated', 'deleted'] as const)
      await peer.publishEvent('supplier.changed.v1', company, {
        supplierId: 5,
        action,
        fields: action === 'deleted' ? [] : ['name', 'vat_id'],
      });
    await peer.publishEvent('inbound.deleted.v1', company, { inboundId: 9 }, { id: `inbound-deleted:${company}:9` });
    await peer.publishEvent('inbound.deleted.v1', company, { inboundId: 9 }, { id: `inbound-deleted:${company}:9` }); // redelivered
    const all: any[] = await waitFor(
      async () => {
        const r = await call('GET', '/audit-log/?limit=100', undefined, company);
        return r.body.entries?.length >= 11 && r.body.entries;
      },
      { what: 'eleven audit entries' },
    );
    await new Promise((r) => setTimeout(r, 300)); // a duplicate would have arrived by now
    expect((await call('GET', '/audit-log/?limit=100', undefined, company)).body.entries).toHaveLength(11);
    const described = all.map((e) => [e.action, e.resource_type, e.resource_id, e.fields.join(',')]);
    expect(described).toEqual(
      expect.arrayContaining([
        ['recurring_invoice.created', 'recurring_invoice', '3', ''],
        ['recurring_invoice.updated', 'recurring_invoice', '3', 'name'],
        ['recurring_invoice.paused', 'recurring_invoice', '3', ''],
        ['recurring_invoice.resumed', 'recurring_invoice', '3', ''],
        ['recurring_invoice.deleted', 'recurring_invoice', '3', ''],
        ['supplier.created', 'supplier', '5', 'name,vat_id'],
        ['supplier.updated', 'supplier', '5', 'name,vat_id'],
        ['supplier.deleted', 'supplier', '5', ''],
        ['inbound_invoice.deleted', 'inbound_invoice', '9', ''],
      ]),
    );
    expect((await call('GET', '/audit-log/verify', undefined, company)).body).toMatchObject({ valid: true, entries: 11 });
  });

  it('appends a burst of events together, each once and in one unbroken chain, redeliveries among them included', async () => {
    const company = `cmp_burst_${prefix.replace(/-/g, '_')}`;
    await peer.callRpc('account.create-company.v1', company, { name: 'Burst GmbH', ownerEmail: 'boss@burst.example', plan: 'pro' });
    await waitFor(async () => (await call('GET', '/audit-log/?limit=100', undefined, company)).body.entries?.length === 2, {
      what: 'the company and key entries',
    });
    const product = (i: number) =>
      peer.publishEvent('product.changed.v1', company, { productId: i, action: 'updated', fields: ['name'] }, { id: `burst-${i}` });
    await product(0); // applied before the burst, delivered again inside it
    await waitFor(async () => (await call('GET', '/audit-log/?limit=100', undefined, company)).body.entries?.length === 3, {
      what: 'the first product entry',
    });
    await Promise.all([...Array.from({ length: 40 }, (_, i) => product(i)), product(17), product(0)]);
    const all = await waitFor(
      async () => {
        const r = await call('GET', '/audit-log/?limit=100', undefined, company);
        return r.body.entries?.length >= 42 && r.body.entries;
      },
      { what: '42 audit entries' },
    );
    await new Promise((r) => setTimeout(r, 300)); // a duplicate would have arrived by now
    expect((await call('GET', '/audit-log/?limit=100', undefined, company)).body.entries).toHaveLength(42);
    expect(all.map((e: any) => e.seq)).toEqual(Array.from({ length: 42 }, (_, i) => 42 - i));
    expect(new Set(all.filter((e: any) => e.action === 'product.updated').map((e: any) => e.resource_id)).size).toBe(40);
    expect((await call('GET', '/audit-log/verify', undefined, company)).body).toMatchObject({ valid: true, entries: 42 });
  });

  it('updates the company profile partially, validates it, and freezes it into the seller profile', async () => {
    const bad = await call('PUT', '/company/', {
      email: 'nope',
      address: { line1: 'X', postal_code: '1', city: 'Y', country_code: 'Germany' },
      website: 'not a url',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(['address.country_code', 'email', 'website']);
    const saved = await call('PUT', '/company/', {
      legal_name: 'Beispiel Software GmbH',
      managing_directors: ['Erika Mustermann'],
      website: 'https://beispiel.example',
      registration_court: 'Amtsgericht Köln',
      registration_id: 'HRB 4711',
      default_language: 'en',
      vat_id: 'de 123 456 789',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      legal_name: 'Beispiel Software GmbH',
      managing_directors: ['Erika Mustermann'],
      vat_id: 'DE123456789',
      default_language: 'en',
      default_currency: 'EUR',
      address: { country_code: 'DE' },
    });
    const got = await call('GET', '/company/');
    expect(got.body.legal_name).toBe('Beispiel Software GmbH');
    const profile = await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {});
    expect(profile.seller).toMatchObject({
      name: 'Beispiel Software GmbH',
      registrationId: 'HRB 4711',
      registrationCourt: 'Amtsgericht Köln',
    });
    await waitFor(() => profileChanges.some((f) => f.includes('legalName')), { what: 'company.profile-changed' });
    expect((await call('GET', '/company/', undefined, 'cmp_nobody')).status).toBe(404);
  });

  it('keeps bank accounts with checked IBANs, one default that goes on invoices, and none after the last is deleted', async () => {
    const table: [string, number][] = [
      ['DE89 3704 0044 0532 0130 00', 201], // valid, spaces
      ['de89370400440532013001', 400], // wrong check digits
      ['DE8937040044053201300', 400], // wrong length for DE
      ['at611904300234573201', 201], // lower case, valid Austrian
      ['XX89370400440532013000', 400], // no such country
    ];
    const created: any[] = [];
    for (const [iban, status] of table) {
      const res = await call('POST', '/company/bank-accounts', { iban, bank_name: 'Bank' });
      expect([iban, res.status]).toEqual([iban, status]);
      if (status === 400) expect(res.body.errors[0].path).toBe('iban');
      else created.push(res.body);
    }
    expect(created[1]).toMatchObject({ iban: 'AT611904300234573201', iban_formatted: 'AT61 1904 3002 3457 3201' });
    expect((await call('POST', '/company/bank-accounts', { iban: 'DE89370400440532013000' })).body.code).toBe('DUPLICATE_BANK_ACCOUNT');
    expect((await call('POST', '/company/bank-accounts', { iban: 'DE02120300000000202051', bic: 'NOTABIC!' })).status).toBe(400);
    const list = (await call('GET', '/company/bank-accounts')).body.bank_accounts;
    const defaults = list.filter((a: any) => a.is_default);
    expect(defaults).toHaveLength(1);
    const at = created[1];
    expect((await call('PUT', `/company/bank-accounts/${at.id}`, { is_default: true, bic: 'BKAUATWW' })).body).toMatchObject({
      is_default: true,
      bic: 'BKAUATWW',
    });
    expect((await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {})).payment).toMatchObject({
      meansCode: '58',
      iban: 'AT611904300234573201',
      bic: 'BKAUATWW',
    });
    for (const a of (await call('GET', '/company/bank-accounts')).body.bank_accounts)
      expect((await call('DELETE', `/company/bank-accounts/${a.id}`)).status).toBe(200);
    expect((await call('GET', '/company/bank-accounts')).body.bank_accounts).toEqual([]);
    expect((await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {})).payment).toBeUndefined();
    expect((await call('GET', '/company/bank-accounts/1')).status).toBe(404);
  });

  it("deletes invoice-service's change token of the seller profile before it answers a change of it", async () => {
    const redis = connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', `${prefix}:`);
    const token = peerDataKeys.seller(DEMO_COMPANY_ID);
    /** Whether invoice-service would ask again after `change` was answered (its token gone). */
    const tokenGoneAfter = async (change: () => Promise<{ status: number }>) => {
      await redis.set(token, 'a copy was made');
      expect((await change()).status).toBeLessThan(300);
      return (await redis.get(token)) === null;
    };
    try {
      expect(await tokenGoneAfter(() => call('PUT', '/company/', { phone: '+49 30 1234567' }))).toBe(true);
      const account = await call('POST', '/company/bank-accounts', { iban: 'DE02120300000000202051' });
      expect(await tokenGoneAfter(() => call('PUT', `/company/bank-accounts/${account.body.id}`, { bank_name: 'Neue Bank' }))).toBe(true);
      expect(await tokenGoneAfter(() => call('DELETE', `/company/bank-accounts/${account.body.id}`))).toBe(true);
      const term = await call('POST', '/company/payment-terms', { name: 'Sofort', days: 7 });
      expect(await tokenGoneAfter(() => call('PUT', `/company/payment-terms/${term.body.id}`, { days: 8 }))).toBe(true);
      expect(await tokenGoneAfter(() => call('DELETE', `/company/payment-terms/${term.body.id}`))).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it('keeps payment terms with Skonto, announces every change, and refuses to delete one in use', async () => {
    const initial = (await call('GET', '/company/payment-terms')).body.payment_terms;
    expect(initial.map((t: any) => [t.id, t.days])).toEqual([
      [1, 14],
      [2, 30],
    ]);
    const bad = await call('POST', '/company/payment-terms', { name: 'Skonto', days: 10, discount: { percent: 2, days: 14 } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('discount.days');
    expect((await call('POST', '/company/payment-terms', { name: 'x', days: -1 })).status).toBe(400);
    expect((await call('POST', '/company/payment-terms', { name: 'x', days: 10, discount: { percent: 2.005, days: 5 } })).status).toBe(400);
    const created = await call('POST', '/company/payment-terms', {
      name: '2 % Skonto',
      days: 30,
      discount: { percent: 2, days: 10 },
      text_de: 'Zahlbar bis {due_date}, {discount_percent} % Skonto bis {discount_date}.',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 3, days: 30, discount: { percent: 2, days: 10 }, text_en: null, is_default: false });
    const id = created.body.id as number;
    const updated = await call('PUT', `/company/payment-terms/${id}`, { days: 21, text_en: 'Due by {due_date}' });
    expect(updated.body).toMatchObject({ id, days: 21, text_en: 'Due by {due_date}', discount: { days: 10 } });
    expect((await call('PUT', `/company/payment-terms/${id}`, { days: 8 })).status).toBe(400); // discount 10 days >= term
    const cleared = await call('PUT', `/company/payment-terms/${id}`, { discount: null, text_en: null });
    expect(cleared.body).toMatchObject({ discount: null, text_en: null, text_de: expect.stringContaining('{due_date}') });
    expect((await call('PUT', `/company/payment-terms/${id}`, { discount: { percent: 2, days: 10 } })).body.discount).toEqual({
      percent: 2,
      days: 10,
    });
    expect((await call('PUT', `/company/payment-terms/${id}`, { name: null })).status).toBe(400);
    expect((await call('GET', `/company/payment-terms/${id}`, undefined, 'cmp_nobody')).status).toBe(404);
    await waitFor(() => termChanges.some((e) => e.changed?.id === id && e.changed.action === 'updated'), { what: 'payment-terms-changed' });
    expect(termChanges.at(-1).terms).toContainEqual({ id, name: '2 % Skonto', days: 21 });
    // what customer-service asks when its copy does not know a term yet: the same list and rev the event carries
    const owner = await peer.callRpc('account.payment-terms.v1', DEMO_COMPANY_ID, {});
    // the events of the later updates may still be on their way: compare with the one of the owner's current rev
    await waitFor(() => termChanges.some((e) => e.rev === owner.rev), { what: 'the payment-terms-changed event of the current rev' });
    const current = termChanges.find((e) => e.rev === owner.rev);
    expect(owner).toEqual({ found: true, rev: current.rev, terms: current.terms });
    expect(await peer.callRpc('account.payment-terms.v1', 'cmp_nobody', {})).toEqual({ found: false });

    // the default term is chosen on the profile and goes into the seller profile with its discount
    expect((await call('PUT', '/company/', { default_payment_term_id: 99 })).status).toBe(400);
    expect((await call('PUT', '/company/', { default_payment_term_id: id })).body.default_payment_term_id).toBe(id);
    const seller = await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {});
    expect(seller.defaultPaymentTermId).toBe(id);
    expect(seller.paymentTerms).toContainEqual(expect.objectContaining({ id, days: 21, discount: { percent: 2, days: 10 } }));
    const asDefault = await call('DELETE', `/company/payment-terms/${id}`);
    expect([asDefault.status, asDefault.body.code, asDefault.body.is_default]).toEqual([409, 'PAYMENT_TERM_IN_USE', true]);
    await call('PUT', '/company/', { default_payment_term_id: 1 });

    customersUsingTerm = 3;
    const inUse = await call('DELETE', `/company/payment-terms/${id}`);
    expect([inUse.status, inUse.body.code, inUse.body.customers]).toEqual([409, 'PAYMENT_TERM_IN_USE', 3]);
    expect(inUse.body.detail).toContain('3 customers');
    customersUsingTerm = 0;
    expect((await call('DELETE', `/company/payment-terms/${id}`)).status).toBe(200);
    expect((await call('GET', `/company/payment-terms/${id}`)).status).toBe(404);
    await waitFor(() => termChanges.some((e) => e.changed?.id === id && e.changed.action === 'deleted'), { what: 'deleted announced' });
  });

  it('holds the small-business flag, a default template that exists, and reports what invoices still lack', async () => {
    expect((await call('PUT', '/company/', { default_template_id: 8 })).status).toBe(400);
    expect((await call('PUT', '/company/', { default_template_id: 7, small_business: true })).body).toMatchObject({
      default_template_id: 7,
      small_business: true,
    });
    const seller = await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {});
    expect(seller.smallBusiness).toBe(true);
    expect(seller.missing).toEqual([]);
    expect((await call('PUT', '/company/', { small_business: false, default_template_id: null })).body).toMatchObject({
      small_business: false,
      default_template_id: null,
    });
  });

  it('announces a changed VAT ID for VIES and shows the verdict once it arrives', async () => {
    const saved = await call('PUT', '/company/', { vat_id: 'DE 999 999 999' });
    expect(saved.body.vat_id).toBe('DE999999999');
    await waitFor(() => vatChanges.some((e) => e.vatId === 'DE999999999'), { what: 'company.vat-id-changed' });
    await peer.publishEvent('vat.checked.v1', DEMO_COMPANY_ID, {
      vatId: 'DE999999999',
      status: 'valid',
      checkedAt: new Date().toISOString(),
      name: 'Beispiel',
    });
    await waitFor(async () => (await call('GET', '/company/')).body.vat_check?.status === 'valid', { what: 'vat verdict on the company' });
  });

  describe('unknown fields are refused (400 UNKNOWN_FIELD naming each, with a suggestion); nothing changes', () => {
    it.each([
      ['PUT', '/company/', { emial: 'billing@beispiel.example' }, 'emial', 'email'],
      ['PUT', '/company/', { legalName: 'X GmbH' }, 'legalName', 'legal_name'],
      [
        'PUT',
        '/company/',
        { address: { line1: 'Weg 1', postcode: '50667', postal_code: '50667', city: 'Köln', country_code: 'DE' } },
        'address.postcode',
        'postal_code',
      ],
      ['POST', '/company/bank-accounts', { iban: 'DE89 3704 0044 0532 0130 00', bank_nmae: 'Commerzbank' }, 'bank_nmae', 'bank_name'],
      ['PUT', '/company/bank-accounts/1', { is_defualt: true }, 'is_defualt', 'is_default'],
      ['POST', '/company/payment-terms', { name: 'Skonto', days: 30, discount_percent: 2 }, 'discount_percent', 'discount.percent'],
      ['POST', '/company/payment-terms', { name: 'Skonto', days: 30, discount_days: 10 }, 'discount_days', 'discount.days'],
      ['PUT', '/company/payment-terms/1', { name: 'x', dayz: 10 }, 'dayz', 'days'],
      ['POST', '/company/payment-terms', { name: 'x', days: 30, discount: { percent: 2, day: 10 } }, 'discount.day', 'days'],
      ['POST', '/company/api-keys', { name: 'ERP', rol: 'admin' }, 'rol', 'role'],
      ['POST', '/members/', { email: 'new@beispiel.example', roel: 'member' }, 'roel', 'role'],
    ])('%s %s', async (method, path, body, field, suggestion) => {
      const before = await call('GET', '/company/');
      const res = await call(method, path, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('UNKNOWN_FIELD');
      expect(res.body.errors[0]).toEqual({ path: field, in: 'body', message: `unknown field; did you mean ${suggestion}?` });
      const after = await call('GET', '/company/');
      expect({ ...after.body, updated_at: 0 }).toEqual({ ...before.body, updated_at: 0 });
      expect(after.body.updated_at).toBe(before.body.updated_at);
    });

    it('names both flattened Skonto fields of a payment term at once', async () => {
      const res = await call('POST', '/company/payment-terms', { name: 'Skonto', days: 30, discount_percent: 2, discount_days: 10 });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { path: 'discount_percent', in: 'body', message: 'unknown field; did you mean discount.percent?' },
        { path: 'discount_days', in: 'body', message: 'unknown field; did you mean discount.days?' },
      ]);
      expect(res.body.detail).toContain('discount_percent (did you mean discount.percent?)');
    });
  });

  it('follows JSON Merge Patch on PUT /company/: null removes vat_id, tax_number, website, the default payment term, …', async () => {
    const filled = await call('PUT', '/company/', {
      vat_id: 'DE 811 569 869',
      tax_number: '143/123/45678',
      website: 'https://beispiel.example',
      phone: '+49 89 123',
      registration_court: 'Amtsgericht München',
      default_payment_term_id: 2,
    });
    expect(filled.status).toBe(200);
    expect(filled.body).toMatchObject({
      vat_id: 'DE811569869',
      tax_number: '143/123/45678',
      website: 'https://beispiel.example',
      default_payment_term_id: 2,
    });
    const removed = await call('PUT', '/company/', { vat_id: null, tax_number: null, website: null, default_payment_term_id: null });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({
      vat_id: null,
      vat_check: null,
      tax_number: null,
      website: null,
      default_payment_term_id: null,
      // absent fields stay
      phone: '+49 89 123',
      registration_court: 'Amtsgericht München',
    });
    const got = (await call('GET', '/company/')).body;
    expect(got).toMatchObject({ vat_id: null, tax_number: null, website: null, default_payment_term_id: null, phone: '+49 89 123' });
    expect((await call('GET', '/company/payment-terms')).body.payment_terms.map((t: any) => t.is_default)).toEqual(
      expect.not.arrayContaining([true]),
    );
    const seller = await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {});
    expect(seller.defaultPaymentTermId).toBeUndefined();
    // required data and settings with a default cannot be removed: 400 naming each
    const refused = await call('PUT', '/company/', { legal_name: null, address: null, small_business: null });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(refused.body.errors.map((e: any) => e.path).sort()).toEqual(['address', 'legal_name', 'small_business']);
    expect(refused.body.errors[0].message).toMatch(/cannot be removed/);
    // the default comes back when chosen again
    expect((await call('PUT', '/company/', { default_payment_term_id: 1, phone: null })).body).toMatchObject({
      default_payment_term_id: 1,
      phone: null,
    });
  });

  it('keeps the seller identifier (BT-29) and the registration scheme (BT-30-1), checked, and hands them to invoices', async () => {
    const saved = await call('PUT', '/company/', {
      seller_identifier: ' 4000001000005 ',
      seller_identifier_scheme: '0088',
      registration_id: '1234 5678',
      registration_id_scheme: '0106',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      seller_identifier: '4000001000005',
      seller_identifier_scheme: '0088',
      registration_id: '12345678',
      registration_id_scheme: '0106',
    });
    const seller = (await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {})).seller;
    expect(seller).toMatchObject({
      identifier: { value: '4000001000005', scheme: '0088' },
      registrationId: '12345678',
      registrationScheme: '0106',
    });
    // hostile and inconsistent input: 400 naming the field, nothing changes
    const refusals: [object, string, RegExp][] = [
      [{ seller_identifier_scheme: '88' }, 'seller_identifier_scheme', /ISO 6523 ICD code/],
      [{ seller_identifier_scheme: '0092' }, 'seller_identifier_scheme', /ISO 6523 ICD code/],
      [{ seller_identifier_scheme: '9930' }, 'seller_identifier_scheme', /ISO 6523 ICD code/],
      [{ seller_identifier_scheme: 'SEPA' }, 'seller_identifier_scheme', /ISO 6523 ICD code/],
      [{ seller_identifier: '4000001000006' }, 'seller_identifier', /GLN \(0088\) has 13 digits with a GS1 check digit/],
      [{ seller_identifier: 'x'.repeat(101) }, 'seller_identifier', /100/],
      [{ seller_identifier: 'ab\u0000c', seller_identifier_scheme: null }, 'seller_identifier', /./],
      [{ seller_identifier: 'ab\u202Ec', seller_identifier_scheme: null }, 'seller_identifier', /./],
      [{ seller_identifier: 42 }, 'seller_identifier', /./],
      [{ registration_id_scheme: '0192' }, 'registration_id_scheme', /Norwegian organisation number \(0192\)/],
      [{ registration_id: 'HRB 1' }, 'registration_id', /Dutch KvK number \(0106\) has 8 digits/],
    ];
    for (const [body, path, message] of refusals) {
      const res = await call('PUT', '/company/', body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      const entry = res.body.errors.find((e: any) => e.path === path);
      expect([JSON.stringify(body), entry?.message]).toEqual([JSON.stringify(body), expect.stringMatching(message)]);
    }
    expect((await call('GET', '/company/')).body).toMatchObject({ seller_identifier: '4000001000005', registration_id: '12345678' });
    // without a scheme any identifier is kept as written; a scheme alone is refused
    expect((await call('PUT', '/company/', { seller_identifier: 'Lieferant 70815', seller_identifier_scheme: null })).body).toMatchObject({
      seller_identifier: 'Lieferant 70815',
      seller_identifier_scheme: null,
    });
    // removing an identifier removes its scheme
    expect((await call('PUT', '/company/', { seller_identifier: null, registration_id: null })).body).toMatchObject({
      seller_identifier: null,
      seller_identifier_scheme: null,
      registration_id: null,
      registration_id_scheme: null,
    });
    const lone = await call('PUT', '/company/', { seller_identifier_scheme: '0088' });
    expect(lone.status).toBe(400);
    expect(lone.body.errors).toEqual([
      expect.objectContaining({ path: 'seller_identifier_scheme', message: expect.stringMatching(/needs its identifier/) }),
    ]);
    const after = (await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {})).seller!;
    expect(after.identifier).toBeUndefined();
    expect(after.registrationScheme).toBeUndefined();
  });

  it('payment terms follow JSON Merge Patch too: null removes the Skonto and the own texts, not the name or days', async () => {
    const created = await call('POST', '/company/payment-terms', {
      name: 'Patch',
      days: 30,
      discount: { percent: 2, days: 10 },
      text_de: 'Bis {due_date}',
      text_en: null,
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const cleared = await call('PUT', `/company/payment-terms/${id}`, { discount: null, text_de: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ discount: null, name: 'Patch', days: 30 });
    const refused = await call('PUT', `/company/payment-terms/${id}`, { days: null });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: 'days', message: expect.stringMatching(/cannot be removed/) }]);
    expect((await call('DELETE', `/company/payment-terms/${id}`)).status).toBe(200);
  });

  describe('logo', () => {
    const put = async (body: Buffer, type = 'image/png', company = DEMO_COMPANY_ID) => {
      const res = await fetch(`${url}/company/logo`, {
        method: 'PUT',
        headers: { 'content-type': type, ...(await identityHeaders(company)) },
        body,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const image = (width: number, height: number, format: 'png' | 'jpeg' | 'gif' | 'webp', alpha = false) =>
      sharp({
        create: {
          width,
          height,
          channels: alpha ? 4 : 3,
          background: alpha ? { r: 200, g: 30, b: 30, alpha: 0.5 } : { r: 20, g: 60, b: 160 },
        },
      })
        .toFormat(format)
        .toBuffer();

    it('resizes a PNG into the letterhead box, flattens transparency, serves it by presigned link and hands it to invoices', async () => {
      const saved = await put(await image(2000, 800, 'png', true));
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        content_type: 'image/png',
        width: 650,
        height: 260,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      const link = await call('GET', '/company/logo');
      expect(link.body).toMatchObject({ content_type: 'image/png', width: 650, height: 260, expires_in: expect.any(Number) });
      const stored = Buffer.from(await (await fetch(link.body.url)).arrayBuffer());
      const meta = await sharp(stored).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', 650, 260, false]);
      expect((await call('GET', '/company/')).body.has_logo).toBe(true);
      const seller = await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {});
      expect(seller.logo).toEqual({
        key: expect.stringMatching(new RegExp(`^${DEMO_COMPANY_ID}/company/logo-[0-9a-f]{16}\\.png$`)),
        contentType: 'image/png',
      });
      await waitFor(() => profileChanges.some((f) => f === 'logo'), { what: 'logo change announced' });
    });

    it('keeps a small JPEG at its size, replaces the old logo, and deletes it', async () => {
      const before = (await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {})).logo;
      const saved = await put(await image(300, 100, 'jpeg'), 'application/octet-stream');
      expect(saved.body).toMatchObject({ content_type: 'image/jpeg', width: 300, height: 100 });
      const after = (await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {})).logo;
      expect(after!.key).not.toBe(before?.key);
      expect(await service.objects.exists(before!.key)).toBe(false); // the replaced image is gone
      expect((await call('DELETE', '/company/logo')).status).toBe(200);
      expect(await service.objects.exists(after!.key)).toBe(false);
      expect((await call('GET', '/company/logo')).status).toBe(404);
      expect((await call('DELETE', '/company/logo')).status).toBe(404);
      expect((await peer.callRpc('account.seller-profile.v1', DEMO_COMPANY_ID, {})).logo).toBeUndefined();
    });

    it('refuses other types by content (415 naming them), broken images, and cuts 1 MiB + 1 byte (413)', async () => {
      const gif = await put(await image(10, 10, 'gif'), 'image/png');
      expect([gif.status, gif.body.code]).toEqual([415, 'UNSUPPORTED_LOGO_TYPE']);
      expect(gif.body.detail).toContain('image/gif');
      const pdf = await put(Buffer.from('%PDF-1.7\n%%EOF\n'), 'image/png');
      expect(pdf.body.detail).toContain('application/pdf');
      const png = await image(400, 200, 'png');
      const truncated = await put(png.subarray(0, 60));
      expect([truncated.status, truncated.body.code]).toEqual([415, 'UNSUPPORTED_LOGO_TYPE']);
      expect((await put(Buffer.alloc(0))).status).toBe(415);
      const big = Buffer.concat([png, Buffer.alloc(1024 * 1024 + 1 - png.length)]);
      const tooBig = await put(big);
      expect([tooBig.status, tooBig.body.code]).toEqual([413, 'LOGO_TOO_LARGE']);
      // the same without a declared length: cut while streaming
      const res = await fetch(`${url}/company/logo`, {
        method: 'PUT',
        headers: { 'content-type': 'image/png', ...(await identityHeaders(DEMO_COMPANY_ID)) },
        body: new ReadableStream({
          start(c) {
            c.enqueue(big);
            c.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect((await call('GET', '/company/logo')).status).toBe(404); // nothing stored
      expect((await put(png, 'image/png', 'cmp_nobody')).status).toBe(404);
    });
  });
});
