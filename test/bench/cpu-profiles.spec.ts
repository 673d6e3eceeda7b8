import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageOf, profileFileOf, profileReport, summarizeProfile, type CpuProfile } from './cpu-profiles';

/** A profile of four functions sampled at the given µs (a sample lasts until the next one). */
function profile(startTime: number, samples: [id: number, atUs: number][]): CpuProfile {
  const timeDeltas = samples.map(([, at], i) => at - (i ? samples[i - 1]![1] : startTime));
  return {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
      { id: 2, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
      { id: 3, callFrame: { functionName: 'serializeInto', url: 'file:///app/node_modules/bson/lib/bson.cjs', lineNumber: 4101 } },
      { id: 4, callFrame: { functionName: 'finalize', url: 'file:///app/dist/invoice-service/service.js', lineNumber: 9 } },
      { id: 5, callFrame: { functionName: '(garbage collector)', url: '', lineNumber: -1 } },
    ],
    startTime,
    endTime: samples.at(-1)![1],
    samples: samples.map(([id]) => id),
    timeDeltas,
  };
}

describe('cpu-profiles', () => {
  it('names what a frame belongs to', () => {
    expect(packageOf('file:///app/node_modules/mongodb/lib/cmap/connection.js', 'sendCommand')).toBe('mongodb');
    expect(packageOf('/app/node_modules/@opentelemetry/api/build/src/api/context.js', 'with')).toBe('@opentelemetry/api');
    expect(packageOf('/app/node_modules/mongoose/node_modules/mongodb/lib/sessions.js', 'applySession')).toBe('mongodb');
    expect(packageOf('node:internal/process/task_queues', 'nextTick')).toBe('node:internal');
    expect(packageOf('node:events', 'emit')).toBe('node:events');
    expect(packageOf('file:///app/dist/gateway/service.js', 'authenticate')).toBe('ours');
    expect(packageOf('', 'writev')).toBe('(native)');
    expect(packageOf('', '(garbage collector)')).toBe('(garbage collector)');
  });

  it('counts only the samples within the window, each for the time until the next, idle apart', () => {
    const p = profile(1_000, [
      [3, 2_000], // before the window
      [4, 10_000],
      [3, 11_000],
      [2, 14_000],
      [5, 20_000],
      [4, 22_000], // after the window
      [4, 30_000],
    ]);
    const s = summarizeProfile(p, { fromUs: 9_000, toUs: 21_000 });
    // 10 000 → 11 000 finalize, 11 000 → 14 000 bson, 14 000 → 20 000 idle, 20 000 → 22 000 GC
    expect(s.busyMs).toBeCloseTo(6);
    expect(s.idleMs).toBeCloseTo(6);
    expect(s.packages).toEqual([
      ['bson', 3],
      ['(garbage collector)', 2],
      ['ours', 1],
    ]);
    expect(s.functions[0]).toEqual(['serializeInto bson/lib/bson.cjs:4102', 3]);
    expect(s.functions.map(([f]) => f)).toContain('finalize dist/invoice-service/service.js:10');
    expect(summarizeProfile(p, { fromUs: 40_000, toUs: 50_000 })).toEqual({ busyMs: 0, idleMs: 0, packages: [], functions: [] });
  });

  it('reads the process and thread from the file name --cpu-prof gives', () => {
    expect(profileFileOf('CPU.20261126.205315.11742.0.001.cpuprofile')).toEqual({ pid: 11742, thread: 0 });
    expect(profileFileOf('CPU.20261126.205322.11742.1.002.cpuprofile')).toEqual({ pid: 11742, thread: 1 });
    expect(profileFileOf('notes.txt')).toBeUndefined();
  });

  it("prints each named process's share for each window, and leaves out files of processes it was not given", () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpu-profiles-'));
    try {
      const p = profile(0, [
        [3, 1_000],
        [4, 3_000],
        [2, 4_000],
      ]);
      writeFileSync(join(dir, 'CPU.20261126.000000.100.0.001.cpuprofile'), JSON.stringify(p));
      writeFileSync(join(dir, 'CPU.20261126.000000.100.1.002.cpuprofile'), JSON.stringify(p));
      writeFileSync(join(dir, 'CPU.20261126.000000.999.0.003.cpuprofile'), JSON.stringify(p)); // not ours
      const lines = profileReport(dir, [{ label: 'cold start', fromUs: 0, toUs: 5_000 }], new Map([[100, 'document']]), 2);
      const text = lines.join('\n');
      expect(text).toContain('CPU profiles, cold start (0.0 s;');
      expect(text).toContain('  document: busy 3 ms, idle 0 ms');
      expect(text).toContain('  document (worker thread 1): busy 3 ms');
      expect(text).toContain('    packages: bson 66.7%, ours 33.3%');
      expect(text).not.toContain('999');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('selects a phase by process.hrtime: V8 stamps the samples with the same clock', async () => {
    const session = new Session();
    session.connect();
    try {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      const idleBefore = Number(process.hrtime.bigint() / 1000n);
      await new Promise((r) => setTimeout(r, 60));
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      let x = 0;
      // most of the time in this function itself, not in the clock's reading
      while (Number(process.hrtime.bigint() / 1000n) - fromUs < 150_000) for (let i = 0; i < 20_000; i++) x += Math.sqrt(x + i);
      const toUs = Number(process.hrtime.bigint() / 1000n);
      const { profile: p } = await session.post('Profiler.stop');
      expect(x).toBeGreaterThan(0);
      const spin = summarizeProfile(p as CpuProfile, { fromUs, toUs });
      // the spinning loop's 150 ms are in the window (sampled in this test's own function), and the quiet 60 ms before it are not
      expect(spin.busyMs).toBeGreaterThan(100);
      const inTest = spin.packages.find(([pkg]) => pkg === 'ours')?.[1] ?? 0;
      expect(inTest / spin.busyMs).toBeGreaterThan(0.5);
      // before it, this test only waited: jest, the profiler or a GC may have been busy then, but not the loop
      const before = summarizeProfile(p as CpuProfile, { fromUs: idleBefore + 5_000, toUs: fromUs - 5_000 });
      expect(before.packages.find(([pkg]) => pkg === 'ours')?.[1] ?? 0).toBeLessThan(10);
    } finally {
      session.disconnect();
    }
  });
});
