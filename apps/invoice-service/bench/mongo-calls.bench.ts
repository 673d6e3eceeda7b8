/**
 * `npx tsx apps/invoice-service/bench/mongo-calls.bench.ts`: the client-side CPU of one MongoDB call made through a mongoose
 * model (`findOne().lean()`, `findOneAndUpdate(..., { lean })`, `updateOne`) against the same call on the
 * driver's collection behind it (`driverCollection`, libs/service-kit), for the calls on an invoice's path. The
 * embedded MongoDB runs in a process of its own, so the figures are this process's CPU only: what a service
 * spends per call, the database's work excluded. After a warm-up, PAIRS (default 30) pairs of adjacent batches
 * of BATCH calls (default 200), one each way, in alternating order; printed: the medians per call and the
 * median of the pairs' differences (the VM drifts by tens of percent within minutes; two adjacent batches
 * drift alike). Env: PAIRS, BATCH.
 *
 * A whole-system run (bench:finalize) cannot show a difference this size on a noisy VM: a few calls per
 * invoice times ~0.1 ms. This measures the call itself, then the command counts per invoice tell the rest.
 */
import { spawn } from 'node:child_process';
import { loadavg, cpus } from 'node:os';
import { resolve } from 'node:path';
import type { Model } from 'mongoose';
import { asCompanyId } from '@inv/contracts';
import { createCounters } from '@inv/runtime';
import { connectMongo, driverCollection } from '@inv/service-kit';
import { invoiceKey, invoiceSchema, type InvoiceDoc, type PositionDoc } from '../src/invoices/db/invoices';

const BENCH_COMPANY = asCompanyId('cmp_bench');

const PAIRS = Number(process.env.PAIRS ?? 30);
const BATCH = Number(process.env.BATCH ?? 200);
const root = resolve(__dirname, '../../..');

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const mongo = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'libs/embedded-mongo/src/cli.ts'), '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const uri = await new Promise<string>((ok, fail) => {
      mongo.stdout!.once('data', (d) => ok(String(d).trim()));
      mongo.once('exit', () => fail(new Error('embedded MongoDB exited')));
    });
    const conn = await connectMongo(uri, `bench_calls_${process.pid}`);
    const invoices = conn.model<InvoiceDoc>('Invoice', invoiceSchema, 'invoices');
    createCounters(conn); // the id counters' model, as every service has it
    const counters = conn.model('Counter') as unknown as Model<{ _id: string; seq: number }>;
    await invoices.init();
    const at = new Date();
    const position = (id: number): PositionDoc => ({
      id,
      title: `Consulting ${id}`,
      quantity: '2.5',
      unitCode: 'HUR',
      unitPrice: '100.00',
      taxRate: '0.19',
      taxTreatmentId: 'standard',
    });
    const COUNT = 200;
    await driverCollection(invoices).insertMany(
      Array.from({ length: COUNT }, (_, i) => ({
        _id: invoiceKey(BENCH_COMPANY, i + 1),
        id: i + 1,
        companyId: BENCH_COMPANY,
        customerId: 7,
        customerName: 'Buyer GmbH',
        status: 'DRAFT',
        number: `RE-${i + 1}`,
        typeCode: '380',
        format: 'ZUGFERD',
        grossCents: 89250,
        positions: [position(1), position(2), position(3)],
        attachmentsUploaded: false,
        createdAt: at,
        updatedAt: at,
      })),
    );

    const id = (i: number) => (i % COUNT) + 1;
    const calls: Array<[string, (i: number) => Promise<unknown>, (i: number) => Promise<unknown>]> = [
      [
        'read an invoice by id',
        (i) => invoices.findOne({ _id: invoiceKey(BENCH_COMPANY, id(i)), companyId: BENCH_COMPANY }).lean(),
        (i) => driverCollection(invoices).findOne({ _id: invoiceKey(BENCH_COMPANY, id(i)), companyId: BENCH_COMPANY }),
      ],
      [
        'findOneAndUpdate an invoice',
        (i) =>
          invoices
            .findOneAndUpdate(
              { _id: invoiceKey(BENCH_COMPANY, id(i)), companyId: BENCH_COMPANY },
              { $set: { updatedAt: new Date() } },
              { returnDocument: 'after' },
            )
            .lean(),
        (i) =>
          driverCollection(invoices).findOneAndUpdate(
            { _id: invoiceKey(BENCH_COMPANY, id(i)), companyId: BENCH_COMPANY },
            { $set: { updatedAt: new Date() } },
            { returnDocument: 'after' },
          ),
      ],
      [
        'updateOne an invoice',
        (i) => invoices.updateOne({ _id: invoiceKey(BENCH_COMPANY, id(i)), companyId: BENCH_COMPANY }, { $set: { updatedAt: new Date() } }),
        (i) =>
          driverCollection(invoices).updateOne(
            { _id: invoiceKey(BENCH_COMPANY, id(i)), companyId: BENCH_COMPANY },
            { $set: { updatedAt: new Date() } },
          ),
      ],
      [
        'take a counter ($inc, upsert)',
        () => counters.findOneAndUpdate({ _id: 'c' }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after', lean: true }),
        () => driverCollection(counters).findOneAndUpdate({ _id: 'c' }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' }),
      ],
    ];

    const measure = async (f: (i: number) => Promise<unknown>) => {
      const c0 = cpuMs();
      for (let i = 0; i < BATCH; i++) await f(i);
      return ((cpuMs() - c0) / BATCH) * 1000; // µs per call
    };
    console.log(
      `${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${new Date().toISOString()}; ${PAIRS} pairs of ${BATCH} calls each way, client CPU µs per call (medians)`,
    );
    for (const [name, viaMongoose, viaDriver] of calls) {
      for (let i = 0; i < 500; i++) {
        await viaMongoose(i);
        await viaDriver(i);
      }
      const m: number[] = [];
      const d: number[] = [];
      const saved: number[] = [];
      for (let r = 0; r < PAIRS; r++) {
        // adjacent batches, in alternating order, so that the VM's drift affects both ways of a pair alike
        const [first, second] = r % 2 === 0 ? [viaMongoose, viaDriver] : [viaDriver, viaMongoose];
        const a = await measure(first);
        const b = await measure(second);
        const [mm, dd] = r % 2 === 0 ? [a, b] : [b, a];
        m.push(mm);
        d.push(dd);
        saved.push(mm - dd);
      }
      const [mm, dd, ss] = [median(m), median(d), median(saved)];
      console.log(
        `  ${name.padEnd(30)} mongoose ${mm.toFixed(0).padStart(4)}  driver ${dd.toFixed(0).padStart(4)}  saved ${ss.toFixed(0).padStart(4)} µs per call (${((ss / mm) * 100).toFixed(0)} %; pairs ${Math.min(...saved).toFixed(0)} to ${Math.max(...saved).toFixed(0)})`,
      );
    }
    await conn.close();
  } finally {
    mongo.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
