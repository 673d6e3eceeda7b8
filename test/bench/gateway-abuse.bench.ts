/**
 * `npm run -s bench:gateway-abuse`: one company floods the gateway with long polls and slow bodies while
 * a second company works normally; prints the second company's latencies during the flood, what the flood got,
 * and whether the gateway stayed up. Loopback only, bounded in count and time.
 *
 * The system runs without document-service, so a finalization job stays queued and every long poll on it is held
 * for its whole `wait`. Company A opens LONG_POLLS (1,000) long polls (`?wait=25`) and SLOW_BODIES (500) POSTs that
 * send one byte a second, all at once; company B runs CLIENTS (10) clients doing GET /customer/ back to back for
 * DURATION_S (30) seconds. A's rate limit is raised (RATE_LIMIT_PER_SECOND=5000) so that the flood reaches the
 * concurrency caps instead of the rate limit. Env: LONG_POLLS, SLOW_BODIES, CLIENTS, DURATION_S, COMPILED=1.
 */
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { randomBytes } from 'node:crypto';
import { peerBus } from '@inv/testing';
import { startSystem } from '../support/system';

const LONG_POLLS = Number(process.env.LONG_POLLS ?? 1000);
const SLOW_BODIES = Number(process.env.SLOW_BODIES ?? 500);
const CLIENTS = Number(process.env.CLIENTS ?? 10);
const DURATION_S = Number(process.env.DURATION_S ?? 30);

const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const tally = (xs: (number | string)[]) => xs.reduce<Record<string, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});

async function main() {
  const system = await startSystem({
    kind: 'babuse',
    services: ['account', 'quota', 'customer', 'invoice', 'gateway'],
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '5000' },
    compiled: process.env.COMPILED === '1',
  });
  const peer = peerBus(system.prefix);
  const sockets: Socket[] = [];
  const dispatcher = new Agent({ connections: LONG_POLLS + CLIENTS + 10, pipelining: 0, headersTimeout: 60_000, bodyTimeout: 60_000 });
  try {
    await peer.start();
    const keyB = `ak_live_${randomBytes(16).toString('hex')}`;
    await peer.callRpc('account.create-company.v1', 'cmp_bench_b', {
      name: 'Beta GmbH',
      ownerEmail: 'owner@beta.example',
      plan: 'pro',
      apiKey: keyB,
    });
    const keyA = system.apiKey;
    const call = async (method: string, path: string, key: string, body?: unknown) => {
      const res = await request(`${system.base}${path}`, {
        method: method as 'GET',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        dispatcher,
      });
      return { status: res.statusCode, body: (await res.body.json().catch(() => ({}))) as Record<string, unknown> };
    };
    // company A: an invoice whose finalization job stays queued (no document-service)
    const customer = await call('POST', '/customer/', keyA, { organization_name: 'Flood GmbH' });
    await call('POST', `/customer/${String(customer.body.id)}/addresses`, keyA, {
      address_line_1: 'Hauptstraße 5',
      city: 'München',
      postal_code: '80331',
      country_code: 'DE',
    });
    const invoice = await call('POST', '/invoice/', keyA, { customer_id: customer.body.id });
    const invoiceId = String(invoice.body.invoice_id);
    await call('POST', `/invoice/${invoiceId}/positions`, keyA, {
      title: 'x',
      quantity: 1,
      unit_id: 'HUR',
      unit_net_amount: 10,
      tax_rate: 0.19,
    });
    const job = await call('POST', `/invoice/${invoiceId}/job`, keyA, { task: 'process_invoice_flag_invoice_send_job' });
    const jobId = String(job.body.job_id);
    if (job.status !== 201 && job.status !== 202) throw new Error(`job: ${job.status} ${JSON.stringify(job.body)}`);
    // company B warms up
    for (let i = 0; i < 50; i++) await call('GET', '/customer/', keyB);

    const gatewayPid = system.running.find((s) => s.name === 'gateway')!.child.pid!;
    const cpu0 = cpuMs(gatewayPid);
    const t0 = performance.now();
    const gatewayUrl = new URL(system.base);

    // the flood: long polls ...
    const polls = Array.from({ length: LONG_POLLS }, async () => {
      const started = performance.now();
      try {
        const r = await call('GET', `/invoice/${invoiceId}/job/${jobId}?wait=25`, keyA);
        return { status: r.status, ms: performance.now() - started };
      } catch {
        return { status: 'error', ms: performance.now() - started };
      }
    });
    // ... and slow bodies: the head at once, then a byte a second
    const slow = Array.from(
      { length: SLOW_BODIES },
      () =>
        new Promise<string>((resolve) => {
          const s = connect(Number(gatewayUrl.port), gatewayUrl.hostname);
          sockets.push(s);
          let received = '';
          s.on('data', (d) => (received += d.toString()));
          s.on('error', () => undefined);
          s.on('close', () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 'closed'));
          s.write(
            `POST /api/v1/customer/ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${keyA}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
          );
          const trickle = setInterval(() => (s.writable ? s.write(' ') : clearInterval(trickle)), 1000);
          setTimeout(() => (clearInterval(trickle), s.destroy()), (DURATION_S + 5) * 1000).unref();
        }),
    );

    // company B, meanwhile
    const latencies: number[] = [];
    const statusesB: number[] = [];
    const end = performance.now() + DURATION_S * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < end) {
          const started = performance.now();
          try {
            statusesB.push((await call('GET', '/customer/', keyB)).status);
          } catch {
            statusesB.push(0);
          }
          latencies.push(performance.now() - started);
        }
      }),
    );
    const pollResults = await Promise.all(polls);
    const slowResults = await Promise.all(slow);
    const elapsed = (performance.now() - t0) / 1000;
    const alive = (await call('GET', '/customer/', keyB)).status;

    console.log(`flood: ${LONG_POLLS} long polls and ${SLOW_BODIES} slow bodies from company A, ${elapsed.toFixed(1)} s`);
    console.log(
      `  long polls: ${JSON.stringify(tally(pollResults.map((r) => r.status)))}; held >= 20 s: ${pollResults.filter((r) => r.ms >= 20_000).length}`,
    );
    console.log(`  slow bodies: ${JSON.stringify(tally(slowResults))}`);
    console.log(
      `company B (${CLIENTS} clients, ${DURATION_S} s): ${latencies.length} requests, statuses ${JSON.stringify(tally(statusesB))}, ` +
        `p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    console.log(
      `gateway: alive (${alive}), CPU ${((cpuMs(gatewayPid) - cpu0) / 1000).toFixed(1)} s over the flood, RSS ${rssMb(gatewayPid).toFixed(0)} MB`,
    );
    console.log(`verdict: B p99 ${pct(latencies, 99) <= 500 ? '<=' : '>'} 500 ms, gateway ${alive === 200 ? 'up' : 'DOWN'}`);
  } finally {
    for (const s of sockets) s.destroy();
    await dispatcher.close().catch(() => undefined);
    await peer.stop().catch(() => undefined);
    await system.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
