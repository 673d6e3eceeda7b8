import { stopService, type ServiceName } from '@inv/runtime';
import { identityHeaders } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(240_000);

/**
 * The whole system as separate processes, logging at info into pipes: every service refuses a direct
 * call that carries only X-Company-Id (or a tampered / foreign token), a token for company A cannot read
 * company B, and after success, 4xx, 5xx and proxy-error paths through the gateway no log line of any
 * process contains API key material.
 */
describe('security: services trust only the gateway; keys never reach a log', () => {
  const lines: string[] = [];
  let system: System;
  let base: string;
  let apiKey: string;
  const url = (name: ServiceName) => system.url(name);

  /** One path per service that needs a company (vat-service has no routes: its middleware answers first). */
  const probes: [ServiceName, string][] = [
    ['account', '/company/api-keys'],
    ['customer', '/customer/'],
    ['invoice', '/invoice/'],
    ['document', '/template/'],
    ['vat', '/anything'],
    ['export', '/acctexp/config'],
    ['quota', '/quota/'],
  ];

  const api = apiClient(
    () => base,
    () => apiKey,
  );

  beforeAll(async () => {
    system = await startSystem({ kind: 'sec', env: { LOG_LEVEL: 'info', UPSTREAM_TIMEOUT_MS: '5000' }, stdio: 'pipe' });
    ({ base, apiKey } = system);
    for (const svc of system.running) {
      for (const stream of [svc.child.stdout, svc.child.stderr])
        stream?.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
    }
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('every service answers 401 to X-Company-Id alone, a tampered and a foreign-key token', async () => {
    const results: Record<string, number[]> = {};
    const good = (await identityHeaders('cmp_demo'))['x-identity-token'];
    const [h, p, sig] = good.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: 'cmp_other' })).toString('base64url')}.${sig}`;
    for (const [name, path] of probes) {
      const bare = await fetch(`${url(name)}${path}`, { headers: { 'x-company-id': 'cmp_demo' } });
      const forged = await fetch(`${url(name)}${path}`, { headers: { 'x-identity-token': tampered } });
      const foreign = await fetch(`${url(name)}${path}`, {
        headers: { 'x-identity-token': `${h}.${p}.${Buffer.from('x'.repeat(32)).toString('base64url')}` },
      });
      results[name] = [bare.status, forged.status, foreign.status];
      expect(bare.headers.get('content-type')).toContain('application/problem+json');
    }
    const verify = await fetch(`${url('account')}/internal/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await identityHeaders('cmp_demo')) },
      body: JSON.stringify({ key: apiKey }),
    });
    results['account /internal/auth/verify with a company token'] = [verify.status];
    process.stdout.write(`direct calls (bare X-Company-Id, tampered token, foreign key): ${JSON.stringify(results)}\n`);
    for (const statuses of Object.values(results)) for (const s of statuses) expect(s).toBe(401);
    // the gateway never routes /internal/*
    expect((await api('POST', '/internal/auth/verify', { key: apiKey })).status).toBe(404);
  });

  it('a token for company A cannot read company B', async () => {
    const created = await api('POST', '/customer/', { organization_name: 'Tenant A AG', language: 'German' });
    expect(created.status).toBe(201);
    const asDemo = await fetch(`${url('customer')}/customer/${created.body!.id}`, { headers: await identityHeaders('cmp_demo') });
    expect(asDemo.status).toBe(200);
    const asOther = await fetch(`${url('customer')}/customer/${created.body!.id}`, { headers: await identityHeaders('cmp_other') });
    expect(asOther.status).toBe(404);
    const list = (await (await fetch(`${url('customer')}/customer/`, { headers: await identityHeaders('cmp_other') })).json()) as unknown;
    expect(JSON.stringify(list)).not.toContain('Tenant A AG');
  });

  it('no log line of any process contains API key material after success, 4xx, 5xx and proxy-error paths', async () => {
    const statuses: number[] = [];
    const note = async (p: Promise<{ status: number }>) => statuses.push((await p).status);
    await note(api('GET', '/invoice/'));
    await note(api('GET', `/customer/?api_key=${apiKey}`)); // 400: not a query parameter the list takes (named, its value never)
    const key = await api('POST', '/company/api-keys', { name: 'logged?' });
    await note(Promise.resolve(key));
    await note(api('GET', '/company/api-keys', undefined, key.body!.key));
    await note(api('DELETE', `/company/api-keys/${key.body!.id}`));
    await note(api('GET', '/company/api-keys', undefined, key.body!.key)); // revoked: 401
    await note(api('POST', '/customer/', { organization_name: '' })); // 400
    await note(api('GET', '/invoice/999999')); // 404
    await note(api('GET', '/invoice/', undefined, `ak_live_${'0'.repeat(32)}`)); // 401
    await note(api('GET', '/invoice/', undefined, `${apiKey}x`)); // 401 malformed
    await stopService(system.running.find((s) => s.name === 'quota')!);
    await note(api('GET', '/quota/')); // 503: proxy error
    expect(statuses).toEqual([200, 400, 201, 200, 200, 401, 400, 404, 401, 401, 503]);
    await new Promise((r) => setTimeout(r, 500));
    const matches = lines.filter((l) => /ak_live_[0-9a-f]/.test(l));
    process.stdout.write(
      `log lines scanned: ${lines.length} from ${system.running.length} processes, lines with key material: ${matches.length}\n`,
    );
    expect(lines.length).toBeGreaterThan(30);
    expect(matches).toEqual([]);
  });
});
