/**
 * Unknown-key burst against the real gateway and account-service (separate processes, embedded MongoDB):
 * 1,000 requests with distinct random unknown API keys from one client address, 50 at a time, while
 * another company (the demo company, another address) keeps calling GET /company/ (a database read in
 * account-service). Prints per mode: answers by status, account-service key lookups (each one is a
 * database query: counted from account-service's request log lines for /internal/auth/verify), and the
 * other company's latency during the burst next to its latency at rest.
 *
 *   npx tsx apps/gateway/bench/unknown-key-burst.ts            # protected (defaults) and unprotected
 *
 * "unprotected" switches the failed-auth limit and the negative cache off (a huge burst budget, TTL 0):
 * what the gateway did before it limited failed attempts and cached unknown keys.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { freeServicesPortOffset, launchServices, stopServices } from '@inv/runtime';
import { deleteBrokerObjects, deleteRedisKeys, testEnv, testS3, uniquePrefix, waitFor } from '@inv/testing';

const REQUESTS = Number(process.env.BURST_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BURST_CONCURRENCY ?? 50);

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const summary = (xs: number[]) =>
  `n=${xs.length} p50=${percentile(xs, 50).toFixed(1)} ms p95=${percentile(xs, 95).toFixed(1)} ms max=${Math.max(...xs).toFixed(1)} ms`;

async function run(mode: 'protected' | 'unprotected') {
  const root = resolve(__dirname, '../../..');
  const prefix = uniquePrefix('bench-burst');
  const apiKey = `ak_live_${randomBytes(16).toString('hex')}`;
  const mongo = await startEmbeddedMongo();
  const s3 = await testS3();
  const extra: Record<string, string> = {
    ...s3.env,
    BOOTSTRAP_API_KEY: apiKey,
    LOG_LEVEL: 'info',
    TRUST_PROXY: 'loopback',
    RATE_LIMIT_PER_SECOND: '100000',
  };
  if (mode === 'unprotected') Object.assign(extra, { AUTH_FAILURES_BURST: '1000000000', AUTH_NEGATIVE_CACHE_TTL_MS: '0' });
  const env: NodeJS.ProcessEnv = { ...process.env, ...testEnv(prefix, mongo.uri, extra) };
  delete env.PORT;
  const running = await launchServices({
    root,
    services: ['account', 'gateway'],
    env,
    portOffset: await freeServicesPortOffset(),
    stdio: 'pipe',
    readyTimeoutMs: 120_000,
  });
  let verifyCalls = 0;
  const account = running.find((s) => s.name === 'account')!;
  account.child.stdout!.on('data', (d: Buffer) => (verifyCalls += (d.toString().match(/"url":"\/internal\/auth\/verify"/g) ?? []).length));
  running.find((s) => s.name === 'gateway')!.child.stdout!.resume();
  const base = `${running.find((s) => s.name === 'gateway')!.url}/api/v1`;
  try {
    const legit = async () => {
      const t = performance.now();
      const res = await fetch(`${base}/company/`, { headers: { 'x-api-key': apiKey, 'x-forwarded-for': '198.51.100.1' } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`legit request answered ${res.status}`);
      return performance.now() - t;
    };
    await waitFor(async () => (await legit().catch(() => undefined)) !== undefined, { timeoutMs: 30_000, what: 'bootstrap key' });
    const atRest: number[] = [];
    for (let i = 0; i < 50; i++) atRest.push(await legit());

    const before = verifyCalls;
    const statuses: Record<number, number> = {};
    let next = 0;
    let done = false;
    const during: number[] = [];
    const background = (async () => {
      while (!done) during.push(await legit());
    })();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next++;
          const res = await fetch(`${base}/invoice/`, {
            headers: { 'x-api-key': `ak_live_${randomBytes(16).toString('hex')}`, 'x-forwarded-for': '203.0.113.66' },
          });
          await res.arrayBuffer();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }
      }),
    );
    const burstMs = performance.now() - started;
    done = true;
    await background;
    await new Promise((r) => setTimeout(r, 500)); // the last log lines
    console.log(
      `\n[${mode}] ${REQUESTS} requests with unknown keys from one address in ${burstMs.toFixed(0)} ms (${CONCURRENCY} concurrent)`,
    );
    console.log(`  answers:               ${JSON.stringify(statuses)}`);
    console.log(`  key lookups (DB):      ${verifyCalls - before}`);
    console.log(`  other company at rest: ${summary(atRest)}`);
    console.log(`  other company, burst:  ${summary(during)}`);
  } finally {
    await stopServices(running);
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await mongo.stop();
    await s3.stop();
  }
}

async function main() {
  const modes = (process.env.BURST_MODES ?? 'protected,unprotected').split(',') as ('protected' | 'unprotected')[];
  for (const mode of modes) await run(mode);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
