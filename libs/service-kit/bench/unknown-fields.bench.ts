/**
 * CPU and answer size of a body with 50,000 unknown keys (parseInput + toProblem, as a service answers it).
 * Run: npx tsx libs/service-kit/bench/unknown-fields.bench.ts
 */
import { z } from 'zod';
import { parseInput, toProblem } from '../src/index';
import { InvoiceCreate } from '@inv/contracts';

const body: Record<string, unknown> = { customer_id: 1 };
for (let i = 0; i < 50_000; i++) body[`field_${i}`] = i;
const run = () => {
  try {
    parseInput(InvoiceCreate as unknown as z.ZodType, body);
  } catch (err) {
    return JSON.stringify(toProblem(err).problem).length;
  }
  return 0;
};
for (let i = 0; i < 3; i++) run(); // warm-up
const n = 10;
const cpu0 = process.cpuUsage();
let size = 0;
for (let i = 0; i < n; i++) size = run();
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ keys: 50_000, problemBytes: size, cpuMsPerRequest: Math.round((cpu.user + cpu.system) / 1000 / n) }));
