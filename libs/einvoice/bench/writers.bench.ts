/**
 * Writer timings: `npx tsx --tsconfig tsconfig.base.json libs/einvoice/bench/writers.bench.ts` (from the repo root).
 * Prints median and p99 per call after a warm-up.
 */
import { computeTotals } from '@inv/money';
import { longInvoice, toCii, toFacturae, toFatturaPA, toUbl } from '../src';

const small = longInvoice(10);
const large = longInvoice(200);
const N = Number(process.env.N ?? 500);

const cases: [string, () => unknown][] = [
  ['computeTotals, 10 lines', () => computeTotals({ lines: small.lines })],
  ['toCii en16931, 10 lines', () => toCii(small, { profile: 'en16931' })],
  ['toUbl peppol, 10 lines', () => toUbl(small, { profile: 'peppol' })],
  ['toFatturaPA, 10 lines', () => toFatturaPA(small)],
  ['toFacturae, 10 lines', () => toFacturae(small)],
  ['toCii en16931, 200 lines', () => toCii(large, { profile: 'en16931' })],
];

for (const [name, fn] of cases) {
  for (let i = 0; i < 50; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`${name}: median ${times[N >> 1]!.toFixed(2)} ms, p99 ${times[Math.floor(N * 0.99)]!.toFixed(2)} ms`);
}
