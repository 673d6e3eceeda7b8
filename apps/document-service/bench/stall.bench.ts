/**
 * How long one large invoice stalls document-service's event loop: rendered by a worker thread (RENDER_WORKERS=1,
 * the default on two cores) and on the event loop (RENDER_WORKERS=0, what the service did before).
 *
 *   npx tsx apps/document-service/bench/stall.bench.ts [LINES] [ROUNDS]   (defaults: 1000, the most an invoice holds, and 3)
 *
 * Each round renders a ZUGFeRD invoice of LINES positions after a warm-up; meanwhile a 1 ms timer records the
 * longest gap between two of its runs: how long a presign RPC or the next job's storage write would have waited.
 * Prints the render's wall time and that longest stall.
 */
import type { InvoiceSnapshot } from '@inv/contracts';
import { domesticMixedRates } from '@inv/einvoice';
import { createRenderer } from '../src/render/render-pool';

const lines = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 3);

function largeInvoice(): InvoiceSnapshot {
  const sample = domesticMixedRates() as unknown as InvoiceSnapshot;
  return { ...sample, lines: Array.from({ length: lines }, (_, i) => ({ ...sample.lines[i % sample.lines.length]!, id: String(i + 1) })) };
}

async function measure(workers: number) {
  const renderer = createRenderer(workers, { timeoutMs: 600_000 });
  await renderer.warmUp();
  const invoice = largeInvoice();
  await renderer.invoice(invoice, 'ZUGFERD', 1); // the large layout once, untimed
  for (let r = 1; r <= rounds; r++) {
    let last = performance.now();
    let stall = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    await renderer.invoice(invoice, 'ZUGFERD', 1);
    const ms = performance.now() - started;
    await new Promise((ok) => setTimeout(ok, 5)); // the ticker runs once more after a blocking render
    clearInterval(ticker);
    console.log(
      `RENDER_WORKERS=${workers} round ${r}: ${lines} lines rendered in ${ms.toFixed(0)} ms; the event loop stalled ${stall.toFixed(1)} ms at most`,
    );
  }
  await renderer.close();
}

async function main() {
  console.log(`node ${process.version}, ${new Date().toISOString()}`);
  await measure(1);
  await measure(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
