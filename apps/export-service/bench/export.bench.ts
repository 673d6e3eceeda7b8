/**
 * `npm run bench:export`: one accounting export of N finalized invoices (default 10,000) with master data,
 * from POST /exports/job to the job reading `finished`, against export-service as its own process.
 *
 * Starts an embedded MongoDB in its own process (MONGO_URL to use a real one), an embedded S3, export-service as a child on a free port
 * with its own bus prefix, seeds its read model directly in MongoDB (setup, not measured: the projection's
 * own speed is a separate matter), warms up with WARMUP exports of a small period, then runs RUNS exports
 * of the whole period. Prints wall time (median and each run), export-service CPU ms per export (utime +
 * stime from /proc) and its RSS high-water mark (VmHWM), the ZIP size, and the machine's load.
 *
 * Env: INVOICES (10000), CUSTOMERS (2000), RUNS (3), WARMUP (2), DOCUMENTS=1 to include a PDF per invoice.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import mongoose from 'mongoose';
import { createObjectStore, startEmbeddedS3 } from '@inv/objects';
import { freeServicesPortOffset, launchServices, stopServices } from '@inv/runtime';
import { deleteBrokerObjects, identityHeaders, testEnv, uniquePrefix } from '@inv/testing';

const INVOICES = Number(process.env.INVOICES ?? 10_000);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 2_000);
const RUNS = Number(process.env.RUNS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 2);
const DOCUMENTS = process.env.DOCUMENTS === '1';
const TICK_MS = 10; // USER_HZ = 100

const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) * TICK_MS;
};
const memKb = (pid: number, field: 'VmHWM' | 'VmRSS') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const prefix = uniquePrefix('bench-exp');
  const company = `cmp_bench_${randomBytes(3).toString('hex')}`;
  const root = resolve(__dirname, '../../..');
  // The embedded MongoDB is JavaScript: in its own process it does not share an event loop with this driver.
  const mongoProc = process.env.MONGO_URL
    ? undefined
    : spawn(process.execPath, ['--import', 'tsx', resolve(root, 'libs/embedded-mongo/src/cli.ts')], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
  const mongoUri =
    process.env.MONGO_URL ??
    (await new Promise<string>((ok, fail) => {
      mongoProc!.stdout!.once('data', (d: Buffer) => ok(d.toString().trim().split('\n')[0]!));
      mongoProc!.once('exit', () => fail(new Error('embedded MongoDB exited')));
    }));
  const mongo = { uri: mongoUri, stop: async () => void mongoProc?.kill('SIGTERM') };
  const s3 = await startEmbeddedS3();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnv(prefix, mongo.uri, {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: 'bench',
    }),
  };
  delete env.PORT;
  const portOffset = await freeServicesPortOffset();
  const running = await launchServices({
    root,
    services: ['export'],
    env,
    portOffset,
    stdio: process.env.BENCH_LOG ? 'inherit' : 'ignore',
    readyTimeoutMs: 90_000,
  });
  const svc = running[0]!;
  const pid = svc.child.pid!;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${svc.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(await identityHeaders(company)) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, any>;
  };
  try {
    // ---- seed the read model (setup)
    const db = mongoose.createConnection(mongo.uri, { dbName: `${env.MONGO_DATABASE_PREFIX}invoicing_export` });
    const store = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: 'bench',
      presignTtlSeconds: 60,
    });
    await store.ensureBucket();
    const pdf = Buffer.alloc(30_000, 0x25);
    const docs = [];
    for (let i = 1; i <= INVOICES; i++) {
      const day = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
      const customerNumber = 10_000 + (i % CUSTOMERS);
      const credit = i % 20 === 0;
      const net19 = (100 + (i % 997) + 0.37).toFixed(2);
      const net7 = (10 + (i % 89) + 0.5).toFixed(2);
      const vat19 = (Number(net19) * 0.19).toFixed(2);
      const vat7 = (Number(net7) * 0.07).toFixed(2);
      const key = `${company}/invoices/${i}/RE-${i}.pdf`;
      if (DOCUMENTS) await store.put(key, pdf, 'application/pdf');
      docs.push({
        _id: `${company}:${i}`,
        companyId: company,
        invoiceId: i,
        finalized: true,
        number: `${credit ? 'GS' : 'RE'}-2026-${String(i).padStart(5, '0')}`,
        typeCode: credit ? '381' : '380',
        invoiceDate: day,
        dueDate: credit ? undefined : day,
        serviceDate: day,
        customerId: customerNumber - 10_000,
        customerNumber,
        buyer: {
          name: `Kunde ${customerNumber} Müller & Söhne GmbH`,
          vatId: `DE${String(100_000_000 + customerNumber)}`,
          address: { line1: `Hauptstraße ${i % 200}`, city: 'Köln', postalCode: '50667', countryCode: 'DE' },
          contact: { email: `k${customerNumber}@example.com` },
        },
        vatGroups: [
          { category: 'S', rate: '19', treatment: 'standard', net: net19, vat: vat19 },
          { category: 'S', rate: '7', treatment: 'reduced', net: net7, vat: vat7 },
        ],
        totalGross: (Number(net19) + Number(vat19) + Number(net7) + Number(vat7)).toFixed(2),
        pdfKey: key,
        pdfFilename: `RE-${i}.pdf`,
        status: 'OPEN',
        updatedAt: new Date(),
      });
    }
    for (let i = 0; i < docs.length; i += 1000) await db.collection('export_invoices').insertMany(docs.slice(i, i + 1000) as never[]);
    await call('PUT', '/acctexp/config', {
      consultant_number: 29098,
      client_number: 55003,
      chart_of_accounts: 'SKR03',
      fiscal_year_start_month: 1,
    });

    const exportOnce = async (start: string, end: string) => {
      const t0 = performance.now();
      const c0 = cpuMs(pid);
      const { job_id } = await call('POST', '/exports/job', {
        task: 'process_acctexp_export_job',
        start_date: start,
        end_date: end,
        include_master_data: true,
        include_documents: DOCUMENTS,
        only_new: false,
      });
      for (;;) {
        const job = await call('GET', `/exports/job/${job_id}`);
        if (job.status === 'failed') throw new Error(`export failed: ${job.error_message}`);
        if (job.status === 'finished') {
          const ms = performance.now() - t0;
          const list = (await call('GET', '/downloads/')) as unknown as { id: number; size: number }[];
          const size = list.filter((d) => job.result.download_ids.includes(d.id)).reduce((s, d) => s + d.size, 0);
          return { ms, cpu: cpuMs(pid) - c0, count: job.result.total_invoice_count as number, size };
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    const rssIdleMb = Math.round(memKb(pid, 'VmRSS') / 1024);
    for (let i = 0; i < WARMUP; i++) await exportOnce('2026-01-01', '2026-01-31');
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await exportOnce('2026-01-01', '2026-12-31'));
    const out = {
      invoices: runs[0]!.count,
      rows: runs[0]!.count * 2,
      customers: CUSTOMERS,
      documents: DOCUMENTS,
      wall_ms_median: Math.round(median(runs.map((r) => r.ms))),
      wall_ms_runs: runs.map((r) => Math.round(r.ms)),
      embedded_mongo_cpu_ms_total: mongoProc ? cpuMs(mongoProc.pid!) : null,
      export_service_cpu_ms_median: Math.round(median(runs.map((r) => r.cpu))),
      export_service_rss_idle_mb: rssIdleMb,
      export_service_rss_peak_mb: Math.round(memKb(pid, 'VmHWM') / 1024),
      export_service_rss_now_mb: Math.round(memKb(pid, 'VmRSS') / 1024),
      zip_bytes: runs[0]!.size,
      machine: { cpus: cpus().length, load1: Number(loadavg()[0]!.toFixed(2)) },
    };
    console.log(JSON.stringify(out, null, 2));
    await db.close();
  } finally {
    await stopServices(running);
    await deleteBrokerObjects(prefix);
    await s3.stop();
    await mongo.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
