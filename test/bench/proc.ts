import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in ticks of 10 ms. */
const TICK_MS = 1000 / 100;

/** A process's (`/proc/<pid>/stat`) or one thread's (`/proc/<pid>/task/<tid>/stat`) parent and CPU ms; undefined if gone. */
export function procStat(pid: number, tid?: string): { ppid: number; cpuMs: number } | undefined {
  try {
    const text = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return undefined;
  }
}

/** CPU ms of a process and all its descendants (tsx's esbuild helper included). */
export function treeCpuMs(pid: number): number {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const parent = new Map(all.map((p) => [p, procStat(p)?.ppid ?? 0]));
  let total = 0;
  for (const p of all) {
    let q: number | undefined = p;
    while (q && q !== pid) q = parent.get(q);
    if (q === pid) total += procStat(p)?.cpuMs ?? 0;
  }
  return total;
}

/** The p-th percentile (nearest rank) of `xs`; NaN for none. */
export const pct = (xs: number[], p: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
