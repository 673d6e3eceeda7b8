/**
 * V8 CPU profiles (`--cpu-prof`) summarized over a window of time: where each process spent its samples while the
 * harness measured one phase (the cold start, a round), not over its whole life (start-up and shutdown, which in a
 * profile written at exit otherwise sit beside the phase: parsing source maps for the stack traces of closing
 * channels, for one).
 *
 * The windows are taken with `process.hrtime`, in microseconds: V8 stamps a profile's samples with the same monotonic
 * clock (CLOCK_MONOTONIC on Linux, as libuv's hrtime), so a window taken in the harness selects the samples of that
 * time in every process's profile (cpu-profiles.spec.ts checks this on a profile of its own process).
 *
 * A thread blocked in JavaScript counts as busy: piscina's render workers wait for work in `Atomics.wait`
 * (`atomicsWaitLoop`), which is most of an idle worker's samples.
 *
 * Written here rather than taken from a package: the profile format is a small JSON document
 * (https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile), and the tools that read it
 * (DevTools, speedscope) are interactive and know nothing of a window of time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  /** µs, monotonic clock */
  startTime: number;
  endTime: number;
  /** node id of each sample */
  samples: number[];
  /** µs before each sample (the first: since startTime) */
  timeDeltas: number[];
}

/** A phase of the benchmark, in µs of the monotonic clock (`process.hrtime.bigint() / 1000n`). */
export interface ProfileWindow {
  label: string;
  fromUs: number;
  toUs: number;
}

export interface ProfileSummary {
  /** ms of samples that were not (idle): running JavaScript, native code, GC, or waiting for a core on a loaded machine */
  busyMs: number;
  idleMs: number;
  /** self time by package (npm package, `node:` module, our code, or V8's pseudo-entries), largest first */
  packages: [string, number][];
  /** self time by function, largest first */
  functions: [string, number][];
}

/**
 * What a frame belongs to: the npm package of its file (the innermost, for a package's own dependency), the `node:` module (`node:internal`, `node:events`), `ours`
 * (the repository's own code, a bundle in dist/ or a source file), `(native)` (no script: system calls, V8 builtins
 * without a script), or V8's own entries such as `(garbage collector)` and `(program)`.
 */
export function packageOf(url: string, functionName: string): string {
  if (functionName.startsWith('(') && !url) return functionName;
  // the innermost package: mongoose's own copy of the MongoDB driver is `mongodb`
  const inModules = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  if (!url) return '(native)';
  return 'ours';
}

/** A frame's name for a table: the function, and its file (below node_modules, or below the repository) and line. */
function frameLabel(cf: CpuProfile['nodes'][number]['callFrame']): string {
  if (!cf.url) return cf.functionName || '(anonymous)';
  const file = cf.url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '')
    .replace(/.*\/(dist|apps|libs)\//, '$1/');
  return `${cf.functionName || '(anonymous)'} ${file}:${cf.lineNumber + 1}`;
}

/**
 * The samples of `profile` taken within the window. A sample stands for the time until the next one (as DevTools
 * counts it); the last sample of a profile, which has no next, counts for nothing.
 */
export function summarizeProfile(profile: CpuProfile, window: Pick<ProfileWindow, 'fromUs' | 'toUs'>): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (at < window.fromUs || at > window.toUs || ms <= 0) continue;
    const node = byId.get(profile.samples[i]!);
    if (!node) continue;
    const cf = node.callFrame;
    if (cf.functionName === '(idle)') {
      idle += ms;
      continue;
    }
    busy += ms;
    const pkg = packageOf(cf.url, cf.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    const label = frameLabel(cf);
    functions.set(label, (functions.get(label) ?? 0) + ms);
  }
  const largestFirst = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { busyMs: busy, idleMs: idle, packages: largestFirst(packages), functions: largestFirst(functions) };
}

/** The process and thread of a profile written by `--cpu-prof`: `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`. */
export function profileFileOf(name: string): { pid: number; thread: number } | undefined {
  const m = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(name);
  return m ? { pid: Number(m[1]), thread: Number(m[2]) } : undefined;
}

const percent = (ms: number, of: number) => `${((100 * ms) / Math.max(of, 1e-9)).toFixed(1)}%`;

/**
 * The lines the harness prints: for each window, each profiled process (by the names in `names`, pid → name) with
 * its busy time, its largest packages and its largest functions by self time (`top` of each). Processes without a
 * name (another run's files in the same folder) are left out.
 */
export function profileReport(dir: string, windows: ProfileWindow[], names: Map<number, string>, top = 6): string[] {
  const files = readdirSync(dir)
    .map((f) => ({ f, of: profileFileOf(f) }))
    .filter((x): x is { f: string; of: { pid: number; thread: number } } => !!x.of && names.has(x.of.pid))
    .map(({ f, of }) => ({
      name: of.thread === 0 ? names.get(of.pid)! : `${names.get(of.pid)} (worker thread ${of.thread})`,
      profile: JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const lines: string[] = [];
  for (const w of windows) {
    lines.push(
      `\nCPU profiles, ${w.label} (${((w.toUs - w.fromUs) / 1e6).toFixed(1)} s; busy: not idle, which on a loaded machine includes waiting for a core):`,
    );
    for (const { name, profile } of files) {
      const s = summarizeProfile(profile, w);
      if (s.busyMs + s.idleMs === 0) continue; // this process was not running then (restarted)
      lines.push(`  ${name}: busy ${s.busyMs.toFixed(0)} ms, idle ${s.idleMs.toFixed(0)} ms`);
      if (!s.busyMs) continue;
      lines.push(
        `    packages: ${s.packages
          .slice(0, top)
          .map(([p, ms]) => `${p} ${percent(ms, s.busyMs)}`)
          .join(', ')}`,
      );
      lines.push(
        `    functions: ${s.functions
          .slice(0, top)
          .map(([f, ms]) => `${percent(ms, s.busyMs)} ${f}`)
          .join(', ')}`,
      );
    }
  }
  return lines;
}
