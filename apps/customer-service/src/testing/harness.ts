import { randomBytes } from 'node:crypto';
import { identityHeaders, peerBus, TEST_IDENTITY_KEY, waitFor } from '@inv/testing';
import { createCustomerService, customerConfig, type CustomerConfig } from '../customer-service';

/** Test-only helpers: a customer-service on a private bus prefix, a second bus to talk to it, HTTP calls as the gateway makes them (signed identity). */

export function testPrefixes() {
  const id = randomBytes(5).toString('hex');
  return { BUS_PREFIX: `t-${id}`, REDIS_PREFIX: `t-${id}:` };
}

export function testConfig(prefixes: { BUS_PREFIX: string; REDIS_PREFIX: string }, extra: Record<string, string> = {}): CustomerConfig {
  return customerConfig.parse({
    ...prefixes,
    MONGO_DATABASE_PREFIX: `${prefixes.BUS_PREFIX.replace(/-/g, '_')}_`,
    PORT: '0',
    LOG_LEVEL: 'silent',
    BUS_RETRY_DELAYS_MS: '50,100',
    RPC_TIMEOUT_MS: '1500',
    IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
    ...extra,
  });
}

/** A second bus speaking our contracts (the shared test helper). */
export const testBus = peerBus;

export type CustomerService = Awaited<ReturnType<typeof createCustomerService>>;

// Response bodies are inspected loosely in tests.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export function http(baseUrl: string, defaultCompany: string) {
  return async function call(
    method: string,
    path: string,
    opts: { company?: string | null; body?: unknown } = {},
  ): Promise<{ status: number; body: Json; headers: Headers }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const company = opts.company === undefined ? defaultCompany : opts.company;
    if (company) Object.assign(headers, await identityHeaders(company));
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
}

/** Polls until `check` returns a value other than undefined (observable outcome, not a fixed sleep). */
export function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  return waitFor(check, { timeoutMs, what });
}

export { createCustomerService };
