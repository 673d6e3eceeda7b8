import { startEmbeddedS3 } from '@inv/objects';
import { crashRetryHarness } from '@inv/runtime/testing';
import { waitFor } from '@inv/testing';
import { DEMO_COMPANY_ID } from './usecases/bootstrap-demo-company';

jest.setTimeout(240_000);

/**
 * The documented retry path for account-service's creations: a POST sent with an Idempotency-Key whose service dies
 * right after its commit (the gateway answers 504 and forgets its copy) and that the client sends again with the same
 * key: the retry answers the first result (an API key's secret only redacted: it was never kept) and nothing exists
 * twice.
 */
describe('idempotent retries across a crash between commit and answer (account-service)', () => {
  const s3: { stop: () => Promise<void> } = { stop: async () => undefined };
  const h = crashRetryHarness({
    service: 'account',
    company: DEMO_COMPANY_ID,
    setup: async () => {
      const server = await startEmbeddedS3();
      s3.stop = () => server.stop();
      return {
        S3_ENDPOINT: server.endpoint,
        S3_ACCESS_KEY: server.accessKey,
        S3_SECRET_KEY: server.secretKey,
        BOOTSTRAP_API_KEY: 'ak_live_00112233445566778899aabbccddee01',
      };
    },
    teardown: () => s3.stop(),
  });
  // the demo company (BOOTSTRAP_API_KEY) is created as the service starts, not before it answers readiness
  beforeAll(() => waitFor(async () => (await h.call('GET', '/company/')).status === 200, { timeoutMs: 30_000, what: 'the demo company' }));

  it('adds a bank account once (the retry is no DUPLICATE_BANK_ACCOUNT); a third send replays the kept answer', async () => {
    const body = { iban: 'DE89370400440532013000', bank_name: 'Bank' };
    const retry = await h.crashThenRetry('/company/bank-accounts', body, 'bank-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toMatchObject({ id: expect.any(Number), iban: 'DE89370400440532013000' });
    const accounts = (await h.call('GET', '/company/bank-accounts')).body.bank_accounts as Array<{ id: number; iban: string }>;
    expect(accounts.filter((a) => a.iban === body.iban).map((a) => a.id)).toEqual([retry.body.id]);
    expect(await h.idempotentPost('/company/bank-accounts', body, 'bank-1')).toEqual(retry);
  });

  it('creates a payment term once', async () => {
    const retry = await h.crashThenRetry('/company/payment-terms', { name: 'Once 45', days: 45 }, 'term-1');
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ id: expect.any(Number), name: 'Once 45', days: 45 });
    const terms = (await h.call('GET', '/company/payment-terms')).body.payment_terms as Array<{ id: number; name: string }>;
    expect(terms.filter((t) => t.name === 'Once 45').map((t) => t.id)).toEqual([retry.body.id]);
  });

  it('creates an API key once: the retry names the stored key, its secret redacted (never kept)', async () => {
    const retry = await h.crashThenRetry('/company/api-keys', { name: 'once' }, 'key-1');
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ id: expect.any(String), name: 'once', key: `ak_live_${'*'.repeat(32)}` });
    const keys = (await h.call('GET', '/company/api-keys')).body.api_keys as Array<{ id: string; name: string; prefix: string }>;
    expect(keys.filter((k) => k.name === 'once').map((k) => [k.id, k.prefix])).toEqual([[retry.body.id, retry.body.prefix]]);
    const journal = JSON.stringify(await h.stored('invoicing_account', 'idempotency_journal'));
    expect(journal).not.toMatch(/ak_live_[0-9a-f]{32}/);
  });

  it('invites a member once', async () => {
    const retry = await h.crashThenRetry('/members/', { email: 'once@team.example', role: 'admin' }, 'member-1');
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ id: expect.any(String), email: 'once@team.example', status: 'invited' });
    const members = (await h.call('GET', '/members/')).body.members as Array<{ id: string; email: string }>;
    expect(members.filter((m) => m.email === 'once@team.example').map((m) => m.id)).toEqual([retry.body.id]);
  });
});
