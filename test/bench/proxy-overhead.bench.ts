/**
 * `npx tsx test/bench/proxy-overhead.bench.ts`: the gateway's cost per request. The same request
 * (GET /customer/{id}) is sent straight to customer-service (with a signed identity, as the gateway sends it)
 * and through the gateway (API key: authentication, rate limit, proxy), side by side in one run, in
 * alternating rounds, with keep-alive clients. Prints requests/s of both, the ratio, and the gateway's
 * CPU per request. Env: REQUESTS (per round, default 2000), CONCURRENCY (default 10), ROUNDS (default 3),
 * COMPILED=1 (the compiled services, `npm run build:services` first).
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { identityHeaders } from '@inv/testing';
import { startSystem } from '../support/system';

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

function cpuMs(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function load(url: string, headers: Record<string, string>): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let sent = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < REQUESTS) {
        sent++;
        await new Promise<void>((resolve, reject) => {
          const req = request(url, { agent, headers }, (res) => {
            if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.end();
        });
      }
    }),
  );
  agent.destroy();
  return REQUESTS / ((performance.now() - t0) / 1000);
}

async function main() {
  const system = await startSystem({
    kind: 'bproxy',
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000' },
    compiled: process.env.COMPILED === '1',
  });
  try {
    const created = await fetch(`${system.base}/customer/`, {
      method: 'POST',
      headers: { 'x-api-key': system.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ organization_name: 'Proxy GmbH', contact_type: 'B2B' }),
    });
    const { id } = (await created.json()) as { id: number };
    const viaGateway = () => load(`${system.base}/customer/${id}`, { 'x-api-key': system.apiKey });
    const direct = async () => load(`${system.url('customer')}/customer/${id}`, await identityHeaders('cmp_demo'));
    const gatewayPid = system.running.find((s) => s.name === 'gateway')!.child.pid!;
    await viaGateway(); // warm-up
    await direct();
    for (let round = 1; round <= ROUNDS; round++) {
      const d = await direct();
      const cpu0 = cpuMs(gatewayPid);
      const g = await viaGateway();
      const gatewayCpuPerRequest = (cpuMs(gatewayPid) - cpu0) / REQUESTS;
      console.log(
        `round ${round}: direct ${d.toFixed(0)} req/s, through the gateway ${g.toFixed(0)} req/s, ratio ${(g / d).toFixed(2)}; gateway CPU ${gatewayCpuPerRequest.toFixed(2)} ms per request`,
      );
    }
  } finally {
    await system.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
