import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { waitFor } from '@inv/testing';
import { apiClient, startSystem, type System } from '../support/system';

jest.setTimeout(240_000);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The operator command as an operator runs it (`npm run -s admin -- ...`, a child process with the services'
 * environment) against account-service, quota-service and the gateway running as separate processes.
 */
describe('e2e: companies and plans through the operator command', () => {
  const root = resolve(__dirname, '../..');
  let system: System;
  const api = apiClient(
    () => system.base,
    () => system.apiKey,
  );
  const admin = (...args: string[]) =>
    new Promise<Run>((done) =>
      execFile('npm', ['run', '-s', 'admin', '--', ...args], { cwd: root, env: system.env, timeout: 60_000 }, (err, stdout, stderr) =>
        done({
          code: err ? Number((err as { code?: unknown }).code ?? 1) : 0,
          stdout,
          stderr: stderr
            .split('\n')
            .filter((l) => !l.startsWith('npm warn'))
            .join('\n'),
        }),
      ),
    );

  beforeAll(async () => {
    system = await startSystem({
      kind: 'accounts',
      services: ['account', 'quota', 'gateway', 'customer', 'invoice', 'export'],
      env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' },
      stdio: process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore',
    });
  });
  afterAll(async () => {
    await system?.stop();
  });

  let companyId: string;
  let key: string;

  it('creates a company with its owner and prints its id and, on the last line, a working API key', async () => {
    const run = await admin('company', 'create', '--name', 'Muster GmbH', '--owner-email', 'Owner@Muster.example', '--plan', 'pro');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.trim().split('\n');
    companyId = /company id: (cmp_[0-9a-f]{24})/.exec(run.stdout)![1];
    key = lines.at(-1)!;
    expect(key).toMatch(/^ak_live_[0-9a-f]{32}$/);
    const company = await api('GET', '/company/', undefined, key);
    expect(company).toMatchObject({ status: 200, body: { name: 'Muster GmbH', plan: 'pro' } });
    // the demo company's key does not see it
    expect((await api('GET', '/company/')).body.name).not.toBe('Muster GmbH');
    await waitFor(async () => (await api('GET', '/quota/', undefined, key)).body?.limit === 100, {
      what: 'quota-service knows the Pro plan',
    });
    expect((await api('GET', '/quota/', undefined, key)).body).toMatchObject({
      plan: 'pro',
      used: 0,
      limit: 100,
      reset_date: expect.stringMatching(/^\d{4}-\d{2}-01$/),
    });
  });

  it('gives a key the permissions of its role: a viewer reads but cannot create an invoice or a key', async () => {
    const viewer = await api('POST', '/company/api-keys', { name: 'reporting', role: 'viewer' }, key);
    expect(viewer).toMatchObject({ status: 201, body: { role: 'viewer' } });
    expect((await api('GET', '/company/', undefined, viewer.body.key)).status).toBe(200);
    const invoice = await api('POST', '/invoice/', { customer_id: 1 }, viewer.body.key);
    expect(invoice).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', missing_permission: 'invoices:write' } });
    expect((await api('POST', '/company/api-keys', { name: 'escalate' }, viewer.body.key)).body).toMatchObject({
      code: 'FORBIDDEN',
      missing_permission: 'keys:manage',
    });
    expect((await api('POST', '/company/api-keys', { name: 'owner key', role: 'owner' }, system.apiKey)).status).toBe(201); // the demo bootstrap key is the owner's
  });

  it("records the services' changes in the audit log with the key that made them, and the chain verifies", async () => {
    const customer = await api('POST', '/customer/', { organization_name: 'Kunde AG', language: 'German', email: 'ap@kunde.example' }, key);
    expect(customer.status).toBe(201);
    const invoice = await api('POST', '/invoice/', { customer_id: customer.body.id, note: 'x' }, key);
    expect(invoice.status).toBe(201);
    const position = await api(
      'POST',
      `/invoice/${invoice.body.invoice_id}/positions`,
      { title: 'Beratung', quantity: 1, unit_id: 'HUR', unit_net_amount: 100, tax_rate: 0.19 },
      key,
    );
    expect(position.status).toBe(201);
    expect((await api('PUT', '/acctexp/config', { consultant_number: 1001, client_number: 1 }, key)).status).toBe(200);
    const address = await api(
      'POST',
      `/customer/${customer.body.id}/addresses`,
      { address_line_1: 'Weg 1', city: 'Köln', postal_code: '50667', country_code: 'DE' },
      key,
    );
    expect(address.status).toBe(201);
    expect((await api('POST', `/invoice/${invoice.body.invoice_id}/cancel`, undefined, key)).status).toBe(200);
    const entries = await waitFor(
      async () => {
        const page = (await api('GET', '/audit-log/?limit=100', undefined, key)).body;
        const actions = (page.entries ?? []).map((e: { action: string }) => e.action);
        return (
          [
            'customer.created',
            'invoice.created',
            'invoice.position_added',
            'export_config.updated',
            'customer.address_added',
            'invoice.cancelled',
          ].every((a) => actions.includes(a)) && page.entries
        );
      },
      { what: 'audit entries of customer- and invoice-service' },
    );
    const created = entries.find((e: { action: string }) => e.action === 'customer.created');
    expect(created).toMatchObject({
      resource_type: 'customer',
      resource_id: String(customer.body.id),
      fields: expect.arrayContaining(['organization_name', 'email']),
      actor: { key_name: 'created by the operator', role: 'owner', request_id: expect.any(String), client_ip: expect.any(String) },
    });
    expect(JSON.stringify(entries)).not.toContain('Kunde AG');
    expect(entries.find((e: { action: string }) => e.action === 'invoice.position_added')).toMatchObject({
      resource_type: 'position',
      resource_id: `${invoice.body.invoice_id}/${position.body.position_id ?? position.body.id}`,
    });
    expect(entries.find((e: { action: string }) => e.action === 'customer.address_added')).toMatchObject({
      resource_type: 'address',
      resource_id: `${customer.body.id}/${address.body.id}`,
      fields: expect.arrayContaining(['address_line_1', 'city']),
    });
    expect(entries.find((e: { action: string }) => e.action === 'invoice.cancelled')).toMatchObject({
      resource_type: 'invoice',
      resource_id: String(invoice.body.invoice_id),
    });
    expect((await api('GET', '/audit-log/verify', undefined, key)).body).toMatchObject({ valid: true, first_invalid_seq: null });
  });

  it('lists the companies', async () => {
    const run = await admin('company', 'list');
    expect(run.code).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith(companyId))!;
    expect(line).toMatch(/pro\s+1\s+2\s+\d{4}-\d{2}-\d{2}T[\d:]+\s+Muster GmbH$/);
    expect(run.stdout).toContain('cmp_demo');
  });

  it('downgrades to Free: the key answers 401 within a second; an upgrade does not bring it back', async () => {
    expect((await api('GET', '/company/', undefined, key)).status).toBe(200); // cached by the gateway now
    const run = await admin('company', 'plan', '--company', companyId, '--plan', 'free');
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining(`${companyId}: plan pro -> free`) });
    const changed = Date.now();
    await waitFor(async () => (await api('GET', '/company/', undefined, key)).status === 401, { what: 'key deactivated', intervalMs: 20 });
    const ms = Date.now() - changed;
    process.stdout.write(`key answered 401 ${ms} ms after the plan command returned\n`);
    expect(ms).toBeLessThan(1000);
    expect((await admin('company', 'plan', '--company', companyId, '--plan', 'free')).stdout).toContain('already on the free plan');
    expect((await admin('company', 'plan', '--company', companyId, '--plan', 'pro')).stdout).toContain('plan free -> pro');
    await waitFor(
      async () => (await admin('company', 'list')).stdout.split('\n').some((l) => l.startsWith(companyId) && /\spro\s/.test(l)),
      { what: 'upgrade recorded' },
    );
    expect((await api('GET', '/company/', undefined, key)).status).toBe(401);
  });

  it('answers --help, refuses wrong usage with status 2 and what the system refuses with status 1', async () => {
    const help = await admin('--help');
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('company create --name') });
    const noEmail = await admin('company', 'create', '--name', 'X GmbH');
    expect(noEmail).toMatchObject({ code: 2, stderr: expect.stringContaining('missing --owner-email') });
    const badPlan = await admin('company', 'plan', '--company', companyId, '--plan', 'gold');
    expect(badPlan).toMatchObject({ code: 2, stderr: expect.stringContaining('invalid --plan') });
    const unknownOption = await admin('company', 'list', '--colour');
    expect(unknownOption.code).toBe(2);
    const unknownCompany = await admin('company', 'plan', '--company', 'cmp_000000000000000000000000', '--plan', 'pro');
    expect(unknownCompany).toMatchObject({ code: 1, stderr: expect.stringContaining('company cmp_000000000000000000000000') });
  });
});
