import { apiKeyRevokedChannel } from '@inv/service-kit';
import { deleteBrokerObjects, deleteRedisKeys, identityHeaders, peerBus, testEnv, testStores, uniquePrefix, waitFor } from '@inv/testing';
import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { accountConfig } from './config';
import { createAccountService } from './account-service';

jest.setTimeout(60_000);

describe('password reset by e-mail', () => {
  const prefix = uniquePrefix();
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createAccountService>>;
  let peer: Bus<Messages>;
  let url: string;
  const mails: any[] = [];
  const events: any[] = [];

  const auth = async (path: string, body: unknown) => {
    const res = await fetch(`${url}/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await identityHeaders({ internal: true })) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
  };
  const tokenOf = (mail: any) => /\/reset-password#token=([\w-]{43})/.exec(mail.data.text)![1]!;

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    peer.onCommand('mail.send.v1', async (msg) => void mails.push(msg));
    peer.onEvent('reset-log', ['member.password-reset.v1'], async (msg) => void events.push(msg));
    await peer.start();
    service = await createAccountService(accountConfig.parse(testEnv(prefix, stores.mongoUrl, stores.s3Env)));
    url = (await service.start()).url;
  });
  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await stores?.stop();
  });

  /** A company whose owner has accepted the invitation with `password` (and is signed in once). */
  async function companyWithOwner(name: string, email: string, password: string) {
    const company = `cmp_reset_${name}_${prefix.replace(/-/g, '_')}`;
    await peer.callRpc('account.create-company.v1', company, { name: `${name} GmbH`, ownerEmail: email, plan: 'pro' });
    const invitation = await waitFor(() => mails.find((m) => m.data.to[0] === email && /accept-invitation/.test(m.data.text)), {
      what: 'invitation e-mail',
    });
    const token = /accept-invitation#token=([\w-]{43})/.exec(invitation.data.text)![1];
    const joined = await auth('invitations/accept', { token, password });
    expect(joined.status).toBe(201);
    return { company, session: joined.body };
  }

  it('sends a single-use link, sets the new password and ends every session', async () => {
    const { company, session } = await companyWithOwner('alpha', 'reset@alpha.example', 'the old password 1');
    const { default: Redis } = await import('ioredis');
    const sub = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const announced: string[] = [];
    sub.on('message', (_c: string, m: string) => announced.push(JSON.parse(m).keyId));
    await sub.subscribe(apiKeyRevokedChannel(`${prefix}:`));
    try {
      // failed sign-ins are forgotten by the reset
      expect((await auth('sessions', { email: 'reset@alpha.example', password: 'wrong password!!' })).status).toBe(401);

      expect(await auth('password-resets', { email: ' Reset@Alpha.example ' })).toMatchObject({
        status: 202,
        body: { message: expect.stringContaining('if the address') },
      });
      const mail = await waitFor(() => mails.find((m) => m.data.to[0] === 'reset@alpha.example' && /reset-password/.test(m.data.text)), {
        what: 'reset e-mail',
      });
      expect(mail.companyId).toBe(company);
      expect(mail.data.subject).toContain('Passwort zurücksetzen für alpha GmbH');
      expect(mail.data.text).toContain('Set a new one here');
      const token = tokenOf(mail);
      // only the token's hash is stored
      const stored = JSON.stringify(await service.runtime.conn.collection('password_resets').find({}).toArray());
      expect(stored).not.toContain(token);

      expect((await auth('password-resets/confirm', { token, password: 'short' })).status).toBe(400);
      expect((await auth('password-resets/confirm', { token, password: 'a new password 2', extra: 1 })).status).toBe(400);
      expect(await auth('password-resets/confirm', { token: 'A'.repeat(43), password: 'a new password 2' })).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
      expect(await auth('password-resets/confirm', { token, password: 'a new password 2' })).toEqual({
        status: 200,
        body: { message: 'the new password is set; sign in with it' },
      });
      // single use
      expect(await auth('password-resets/confirm', { token, password: 'a third password' })).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
      // the old session ended (and every gateway is told); the old password no longer works, the new one does
      expect((await auth('sessions/refresh', { session_token: session.session_token })).status).toBe(401);
      await waitFor(() => announced.length === 1, { what: 'session end announced' });
      expect(announced[0]).toMatch(/^mses_[0-9a-f]{24}$/);
      expect((await auth('sessions', { email: 'reset@alpha.example', password: 'the old password 1' })).status).toBe(401);
      expect((await auth('sessions', { email: 'reset@alpha.example', password: 'a new password 2' })).status).toBe(201);
      const failures = await service.runtime.conn.collection('sign_in_failures').countDocuments({});
      expect(failures).toBe(0);
      const event = await waitFor(() => events.find((e) => e.companyId === company), { what: 'member.password-reset.v1' });
      expect(event.data).toEqual({ memberId: session.member.id });
      // the audit log names the reset, never the password
      await waitFor(
        async () =>
          (await service.runtime.conn.collection('audit_log').countDocuments({ companyId: company, action: 'member.password_reset' })) ===
          1,
        { what: 'audit entry' },
      );
    } finally {
      sub.disconnect();
    }
  });

  it('answers every address the same and sends at most 3 rounds of e-mails per address and hour', async () => {
    await companyWithOwner('beta', 'limit@beta.example', 'the old password 1');
    expect(await auth('password-resets', { email: 'nobody@nowhere.example' })).toMatchObject({
      status: 202,
      body: { message: expect.stringContaining('if the address') },
    });
    expect((await auth('password-resets', { email: 'not an address' })).status).toBe(400);
    expect((await auth('password-resets', { email: 'limit@beta.example', more: 1 })).status).toBe(400);
    const resetMails = () => mails.filter((m) => m.data.to[0] === 'limit@beta.example' && /reset-password/.test(m.data.text));
    for (let i = 0; i < 5; i++) expect((await auth('password-resets', { email: 'limit@beta.example' })).status).toBe(202);
    await waitFor(() => resetMails().length === 3, { what: '3 reset e-mails' });
    await new Promise((r) => setTimeout(r, 500));
    expect(resetMails()).toHaveLength(3);
    expect(mails.filter((m) => m.data.to[0] === 'nobody@nowhere.example')).toHaveLength(0);
    // each link works once; a used one ends the member's other links too
    const [first, second] = resetMails().map(tokenOf);
    expect((await auth('password-resets/confirm', { token: first, password: 'a new password 2' })).status).toBe(200);
    expect((await auth('password-resets/confirm', { token: second, password: 'a new password 3' })).status).toBe(404);
  });

  it('refuses an expired link', async () => {
    await companyWithOwner('gamma', 'late@gamma.example', 'the old password 1');
    expect((await auth('password-resets', { email: 'late@gamma.example' })).status).toBe(202);
    const mail = await waitFor(() => mails.find((m) => m.data.to[0] === 'late@gamma.example' && /reset-password/.test(m.data.text)), {
      what: 'reset e-mail',
    });
    await service.runtime.conn.collection('password_resets').updateMany({}, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await auth('password-resets/confirm', { token: tokenOf(mail), password: 'a new password 2' })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
  });
});
