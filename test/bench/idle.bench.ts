/**
 * `npx tsx test/bench/idle.bench.ts`: what each service costs while nothing happens, CPU ms per second and RSS,
 * after a settling pause. Timers that wake a process often (event-loop sampling, pool maintenance, polling)
 * show here first; under load the same cost is spread over the invoices. Env: SECONDS (default 30),
 * COMPILED=1 (the compiled services, `npm run build:services` first).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startSystem } from '../support/system';

const SECONDS = Number(process.env.SECONDS ?? 30);

function stat(pid: number): { cpuMs: number; rssMb: number } {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { cpuMs: (Number(f[11]) + Number(f[12])) * 10, rssMb: (Number(f[21]) * 4096) / 1024 ** 2 };
}

async function main(): Promise<void> {
  const compiled = process.env.COMPILED === '1';
  const system = await startSystem({ kind: 'bidle', env: { LOG_LEVEL: 'warn' }, compiled });
  try {
    await new Promise((r) => setTimeout(r, 10_000)); // start-up work settles
    const before = Object.fromEntries(system.running.map((s) => [s.name, stat(s.child.pid!)]));
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    console.log(
      `idle ${SECONDS} s, ${compiled ? 'compiled' : 'tsx'}, load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    let total = 0;
    for (const s of system.running) {
      const now = stat(s.child.pid!);
      const perSecond = (now.cpuMs - before[s.name].cpuMs) / SECONDS;
      total += perSecond;
      console.log(`  ${s.name.padEnd(9)} ${perSecond.toFixed(1).padStart(5)} ms CPU per second, RSS ${now.rssMb.toFixed(0)} MB`);
    }
    console.log(`  all       ${total.toFixed(1).padStart(5)} ms CPU per second`);
  } finally {
    await system.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
