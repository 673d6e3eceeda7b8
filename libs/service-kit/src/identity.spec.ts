import express from 'express';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { createLogger } from './logger';
import { companyIdOf } from './company-context';
import { createIdentitySigner, createIdentityVerifier, IDENTITY_HEADER, requireIdentity, resolveIdentityKeys } from './identity';
import { ConfigError } from './config';

const keyA = 'a'.repeat(64);
const keyB = 'b'.repeat(64);

describe('identity tokens', () => {
  it('round-trips a company identity', async () => {
    const token = await createIdentitySigner([keyA]).sign({
      scope: 'company',
      companyId: 'cmp_1',
      keyId: 'k1',
      role: 'viewer',
      plan: 'pro',
      requestId: 'r1',
      clientIp: '10.0.0.1',
    });
    expect(await createIdentityVerifier([keyA]).verify(token)).toEqual({
      scope: 'company',
      companyId: 'cmp_1',
      keyId: 'k1',
      role: 'viewer',
      plan: 'pro',
      requestId: 'r1',
      clientIp: '10.0.0.1',
    });
  });

  it('rotates: the first key signs, every listed key verifies', async () => {
    const old = await createIdentitySigner([keyA]).sign({ scope: 'company', companyId: 'cmp_1' });
    const fresh = await createIdentitySigner([keyB, keyA]).sign({ scope: 'company', companyId: 'cmp_1' });
    const both = createIdentityVerifier([keyB, keyA]);
    await expect(both.verify(old)).resolves.toMatchObject({ companyId: 'cmp_1' });
    await expect(both.verify(fresh)).resolves.toMatchObject({ companyId: 'cmp_1' });
    await expect(createIdentityVerifier([keyA]).verify(fresh)).rejects.toThrow(/unknown key/);
  });

  it('refuses tampered, expired, foreign and malformed tokens', async () => {
    const verifier = createIdentityVerifier([keyA]);
    const token = await createIdentitySigner([keyA]).sign({ scope: 'company', companyId: 'cmp_a' });
    const [h, p, sig] = token.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: 'cmp_b' })).toString('base64url')}.${sig}`;
    await expect(verifier.verify(tampered)).rejects.toThrow(/signature/);
    const kid = JSON.parse(Buffer.from(h, 'base64url').toString()).kid;
    const expired = await new SignJWT({ scope: 'company' })
      .setProtectedHeader({ alg: 'HS256', kid })
      .setSubject('cmp_a')
      .setIssuer('inv-gateway')
      .setAudience('inv-services')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(keyA));
    await expect(verifier.verify(expired)).rejects.toThrow(/expired/);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${p}.`;
    await expect(verifier.verify(none)).rejects.toThrow();
    await expect(verifier.verify('garbage')).rejects.toThrow(/malformed/);
    await expect(verifier.verify(undefined)).rejects.toThrow(/no identity/);
  });

  it('refuses production without keys and keys shorter than 32 characters', () => {
    expect(() => resolveIdentityKeys({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(resolveIdentityKeys({ NODE_ENV: 'development' })).toHaveLength(1);
  });
});

describe('requireIdentity middleware', () => {
  it('answers 401 to a bare X-Company-Id, logs the caller at warn, and gives handlers the token company only', async () => {
    const lines: string[] = [];
    const logger = createLogger('t', 'info', { write: (s: string) => void lines.push(s) });
    const app = express();
    app.use(requireIdentity(createIdentityVerifier([keyA]), logger));
    app.get('/things', (req, res) => void res.json({ company: companyIdOf(req), header: req.header('x-company-id') ?? null }));
    app.get('/internal/x', (_req, res) => void res.json({ ok: true }));
    app.get('/healthz', (_req, res) => void res.json({ ok: true }));
    const server = app.listen(0);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const bare = await fetch(`${url}/things`, { headers: { 'x-company-id': 'cmp_b' } });
      expect(bare.status).toBe(401);
      expect(bare.headers.get('content-type')).toContain('application/problem+json');
      const warn = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request without a valid identity token refused');
      expect(warn).toMatchObject({
        level: 40,
        caller: expect.stringMatching(/127\.0\.0\.1/),
        path: '/things',
        reason: 'no identity token',
      });

      const signer = createIdentitySigner([keyA]);
      const asA = { [IDENTITY_HEADER]: await signer.sign({ scope: 'company', companyId: 'cmp_a' }) };
      const ok = await fetch(`${url}/things`, { headers: { ...asA, 'x-company-id': 'cmp_b' } });
      expect(await ok.json()).toEqual({ company: 'cmp_a', header: null });
      expect((await fetch(`${url}/internal/x`, { headers: asA })).status).toBe(401);
      expect((await fetch(`${url}/internal/x`, { headers: { [IDENTITY_HEADER]: await signer.sign({ scope: 'internal' }) } })).status).toBe(
        200,
      );
      const foreign = await createIdentitySigner([keyB]).sign({ scope: 'company', companyId: 'cmp_a' });
      expect((await fetch(`${url}/things`, { headers: { [IDENTITY_HEADER]: foreign } })).status).toBe(401);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(lines.join('')).not.toContain(asA[IDENTITY_HEADER]);
    } finally {
      server.close();
    }
  });
});
