/**
 * `npm run bench:invoice-list`: GET /invoice/ of a company with INVOICES (10,000) invoices, against invoice-service as its
 * own process (embedded MongoDB in another, embedded S3 here; the services it asks played by a peer bus, which a list never calls).
 * A second company holds OTHER (2,000) invoices in the same collection: its rows must cost the first nothing.
 *
 * The invoices are written straight into the service's database (the documents its repository stores: 3 positions, a
 * buyer snapshot when finalized; 10 % drafts, 30 % OPEN, 25 % SENT, 30 % PAID, 5 % CANCELLED; 400 customers). Then,
 * for each case below, WARMUP untimed requests and RUNS timed ones, one at a time; printed per case: wall time p50 and
 * p95 (ms), and the CPU per request of invoice-service and of the embedded MongoDB (ms, from /proc over all RUNS; the
 * embedded server is a stand-in, production runs MongoDB), the total and the page's length. Target: p95 < 300 ms.
 * Env: INVOICES, OTHER, RUNS (40), WARMUP (5), LIMIT (25, the page size).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { asCompanyId, type CompanyId } from '@inv/contracts';
import { startEmbeddedS3 } from '@inv/objects';
import { freeServicesPortOffset, launchServices, stopServices } from '@inv/runtime';
import { connectMongo, driverCollection } from '@inv/service-kit';
import { deleteBrokerObjects, identityHeaders, peerBus, testEnv, uniquePrefix } from '@inv/testing';
import { invoiceKey, invoiceSchema, type InvoiceDoc } from '../src/invoices/db/invoices';

const INVOICES = Number(process.env.INVOICES ?? 10_000);
const OTHER = Number(process.env.OTHER ?? 2_000);
const RUNS = Number(process.env.RUNS ?? 40);
const WARMUP = Number(process.env.WARMUP ?? 5);
const LIMIT = Number(process.env.LIMIT ?? 25);
const TARGET_MS = 300;

const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks of 10 ms (USER_HZ 100)
const cpuMsOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const STATUSES: InvoiceDoc['status'][] = [
  ...Array<InvoiceDoc['status']>(2).fill('DRAFT'),
  ...Array<InvoiceDoc['status']>(6).fill('OPEN'),
  ...Array<InvoiceDoc['status']>(5).fill('SENT'),
  ...Array<InvoiceDoc['status']>(6).fill('PAID'),
  'CANCELLED',
];
const CUSTOMER_NAMES = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann'];

function invoice(companyId: CompanyId, id: number): Omit<InvoiceDoc, '_id'> & { _id: string } {
  const status = STATUSES[id % STATUSES.length]!;
  const customerId = (id % 400) + 1;
  const customerName = `${CUSTOMER_NAMES[customerId % CUSTOMER_NAMES.length]} ${customerId} GmbH`;
  const day = new Date(Date.UTC(2025, 0, 1) + (id % 700) * 86_400_000).toISOString().slice(0, 10);
  const due = new Date(Date.UTC(2025, 0, 15) + (id % 700) * 86_400_000).toISOString().slice(0, 10);
  const finalized = status !== 'DRAFT';
  const grossCents = 10_000 + ((id * 7919) % 500_000);
  const at = new Date(Date.UTC(2025, 0, 1) + id * 60_000);
  return {
    _id: invoiceKey(companyId, id),
    companyId,
    id,
    customerId,
    customerName,
    status,
    number: `RE-${day.slice(0, 4)}-${String(id).padStart(5, '0')}`,
    typeCode: id % 50 === 0 ? '381' : '380',
    format: 'ZUGFERD',
    taxTreatmentId: 'standard',
    grossCents,
    positions: [1, 2, 3].map((p) => ({
      id: id * 3 + p,
      title: `Beratung ${p}`,
      description: 'Leistungen laut Vereinbarung',
      quantity: '2.5',
      unitCode: 'HUR',
      unitPrice: '100.00',
      taxRate: '0.19',
      taxTreatmentId: 'standard',
    })),
    ...(id % 10 === 1 && !finalized ? {} : { invoiceDate: day, dueDate: due }),
    ...(finalized
      ? {
          finalizedAt: at,
          snapshot: {
            seller: {
              name: 'Bench Verkauf GmbH',
              address: { line1: 'Hauptstraße 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
            },
            buyer: { name: customerName, address: { line1: `Weg ${customerId}`, city: 'Hamburg', postalCode: '20095', countryCode: 'DE' } },
            note: 'Leistungszeitraum laut Vertrag. '.repeat(20),
          } as unknown as InvoiceDoc['snapshot'],
        }
      : {}),
    ...(status === 'PAID' ? { paidCents: grossCents, paidDate: due } : {}),
    ...(status === 'CANCELLED' ? { cancelledAt: at } : {}),
    createdAt: at,
    updatedAt: at,
  };
}

async function main() {
  const root = resolve(__dirname, '../../..');
  const prefix = uniquePrefix('bench-list');
  const company = asCompanyId('cmp_bench_list');
  const other = asCompanyId('cmp_bench_list_other');
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
  let running: Awaited<ReturnType<typeof launchServices>> = [];
  try {
    running = await launchServices({
      root,
      services: ['invoice'],
      env,
      portOffset: await freeServicesPortOffset(),
      stdio: 'ignore',
      readyTimeoutMs: 90_000,
    });
    const svc = running[0]!;
    const pid = svc.child.pid!;

    // the service has created its indexes by now (it is ready); write the invoices as its repository stores them
    const conn = await connectMongo(mongoUri, `${env.MONGO_DATABASE_PREFIX}invoicing_invoice`);
    const raw = driverCollection(conn.model<InvoiceDoc>('Invoice', invoiceSchema, 'invoices'));
    const t0 = performance.now();
    for (const [cmp, n] of [
      [company, INVOICES],
      [other, OTHER],
    ] as const) {
      for (let from = 1; from <= n; from += 1000) {
        const batch = Array.from({ length: Math.min(1000, n - from + 1) }, (_, i) => invoice(cmp, from + i));
        await raw.insertMany(batch as InvoiceDoc[], { ordered: false });
      }
    }
    const seedMs = performance.now() - t0;
    await conn.close();

    // the gateway's signed identity, as the service sees it; renewed well within its 60 s lifetime (outside the timing)
    let headers = await identityHeaders(company);
    setInterval(() => void identityHeaders(company).then((h) => (headers = h)), 20_000).unref();
    const get = async (query: string) => {
      const res = await fetch(`${svc.url}/invoice/?${query}`, { headers });
      const body = (await res.json()) as { invoices: unknown[]; total: number; next_cursor: string | null };
      if (res.status !== 200) throw new Error(`GET /invoice/?${query} answered ${res.status}: ${JSON.stringify(body)}`);
      return body;
    };
    // a deep page: the cursor after 9,000 invoices (followed once, untimed), then the page after it
    let deep: string | null = null;
    for (let seen = 0; seen < Math.min(9_000, INVOICES - LIMIT); seen += 100)
      deep = (await get(`limit=100${deep ? `&cursor=${deep}` : ''}`)).next_cursor;
    const cases: [string, string][] = [
      ['first page (newest first)', `limit=${LIMIT}`],
      ['page 2', `limit=${LIMIT}&page=2`],
      ['deep page via cursor (after 9,000)', `limit=${LIMIT}&cursor=${deep}`],
      ['deep page via page number (page 361)', `limit=${LIMIT}&page=361`],
      ...(['DRAFT', 'OPEN', 'SENT', 'PAID', 'CANCELLED'] as const).map((s): [string, string] => [
        `status=${s}`,
        `limit=${LIMIT}&status=${s}`,
      ]),
      ['open=true (open amount > 0)', `limit=${LIMIT}&open=true`],
      ['overdue=true', `limit=${LIMIT}&overdue=true`],
      ['customer_id=7', `limit=${LIMIT}&customer_id=7`],
      ['q: number (2025-0012)', `limit=${LIMIT}&q=2025-0012`],
      ['q: customer name (müller 1)', `limit=${LIMIT}&q=${encodeURIComponent('müller 1')}`],
      ['q: matching nothing', `limit=${LIMIT}&q=zzzz`],
      ...(['date', '-date', 'number', '-number', 'amount', '-amount', 'created'] as const).map((s): [string, string] => [
        `sort=${s}`,
        `limit=${LIMIT}&sort=${s}`,
      ]),
      ['status=OPEN&sort=-amount', `limit=${LIMIT}&status=OPEN&sort=-amount`],
      ['status=PAID&sort=-date', `limit=${LIMIT}&status=PAID&sort=-date`],
      ['limit=100', 'limit=100'],
    ];
    const results: Record<string, unknown>[] = [];
    for (const [name, query] of cases) {
      for (let i = 0; i < WARMUP; i++) await get(query);
      const times: number[] = [];
      const svcCpu0 = cpuMsOf(pid);
      const dbCpu0 = cpuMsOf(mongoProc.pid!);
      let last = { invoices: [] as unknown[], total: 0 };
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        last = await get(query);
        times.push(performance.now() - t);
      }
      const round = (x: number) => Math.round(x * 10) / 10;
      results.push({
        case: name,
        p50_ms: round(pct(times, 50)),
        p95_ms: round(pct(times, 95)),
        service_cpu_ms: round((cpuMsOf(pid) - svcCpu0) / RUNS),
        db_cpu_ms: round((cpuMsOf(mongoProc.pid!) - dbCpu0) / RUNS),
        total: last.total,
        shown: last.invoices.length,
      });
    }
    console.table(results);
    const over = results.filter((r) => (r.p95_ms as number) >= TARGET_MS).map((r) => r.case);
    console.log(
      JSON.stringify({
        invoices: INVOICES,
        other_company: OTHER,
        seed_ms: Math.round(seedMs),
        runs: RUNS,
        load_average: loadavg().map((l) => Math.round(l * 10) / 10),
        target_p95_ms: TARGET_MS,
        over_target: over,
      }),
    );
    if (over.length) process.exitCode = 1;
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
