/**
 * `npm run bench:upload`: attachment uploads against invoice-service as its own process (embedded MongoDB
 * in another process, embedded S3 here, the services it asks played by a peer bus).
 *
 * Prints the wall time of single 5 MiB uploads (median and p90 of RUNS after WARMUP), and the service's
 * RSS before and at its peak (VmRSS sampled every 5 ms) while CONCURRENCY 5 MiB uploads run at once:
 * streamed uploads keep memory flat, buffered ones would add 5 MiB each.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startEmbeddedS3 } from '@inv/objects';
import { freeServicesPortOffset, launchServices, stopServices } from '@inv/runtime';
import { deleteBrokerObjects, identityHeaders, peerBus, testEnv, uniquePrefix } from '@inv/testing';

const RUNS = Number(process.env.RUNS ?? 20);
const WARMUP = Number(process.env.WARMUP ?? 5);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 20);
const SIZE = 5 * 1024 * 1024;
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function main() {
  const root = resolve(__dirname, '../../..');
  const prefix = uniquePrefix('bench-up');
  const company = 'cmp_bench_upload';
  const mongoProc = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'libs/embedded-mongo/src/cli.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const mongoUri = await new Promise<string>((ok, fail) => {
    mongoProc.stdout!.once('data', (d: Buffer) => ok(d.toString().trim().split('\n')[0]!));
    mongoProc.once('exit', () => fail(new Error('embedded MongoDB exited')));
  });
  const s3 = await startEmbeddedS3();
  const peer = peerBus(prefix);
  peer.serveRpc('customer.billing-snapshot.v1', async () => ({
    found: true,
    hasBillingAddress: true,
    buyer: { name: 'Buyer AG', address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' } },
    language: 'de',
    vatStatus: 'not_checked',
  }));
  peer.serveRpc('account.seller-profile.v1', async () => ({ found: false }));
  await peer.start();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnv(prefix, mongoUri, {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: 'bench',
    }),
  };
  delete env.PORT;
  const running = await launchServices({
    root,
    services: ['invoice'],
    env,
    portOffset: await freeServicesPortOffset(),
    stdio: 'ignore',
    readyTimeoutMs: 90_000,
  });
  const svc = running[0]!;
  const pid = svc.child.pid!;
  const headers = await identityHeaders(company);
  try {
    const draft = async () => {
      const res = await fetch(`${svc.url}/invoice/`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ customer_id: 1 }),
      });
      return ((await res.json()) as { invoice_id: number }).invoice_id;
    };
    const file = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(SIZE - 9, 0x41)]);
    const upload = async (invoiceId: number) => {
      const form = new FormData();
      form.append('file', new Blob([file]), 'big.pdf');
      const t0 = performance.now();
      const res = await fetch(`${svc.url}/invoice/${invoiceId}/attachments`, { method: 'POST', headers, body: form });
      await res.text();
      if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
      return performance.now() - t0;
    };
    // single uploads (a fresh draft every 4, to stay under 25 MiB per invoice)
    let inv = await draft();
    const times: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      if (i % 4 === 0) inv = await draft();
      const ms = await upload(inv);
      if (i >= WARMUP) times.push(ms);
    }
    // concurrent uploads, one draft each
    const drafts = await Promise.all(Array.from({ length: CONCURRENCY }, () => draft()));
    await new Promise((r) => setTimeout(r, 500));
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 5);
    const t0 = performance.now();
    await Promise.all(drafts.map((d) => upload(d)));
    const wall = performance.now() - t0;
    clearInterval(sampler);
    console.log(
      JSON.stringify(
        {
          single_5mib_upload_ms: { median: Math.round(pct(times, 50)), p90: Math.round(pct(times, 90)), runs: RUNS },
          concurrent: {
            uploads: CONCURRENCY,
            wall_ms: Math.round(wall),
            rss_before_mb: Math.round(before),
            rss_peak_mb: Math.round(peak),
            rss_growth_mb: Math.round(peak - before),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await stopServices(running);
    await peer.stop();
    await deleteBrokerObjects(prefix);
    await s3.stop();
    mongoProc.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
