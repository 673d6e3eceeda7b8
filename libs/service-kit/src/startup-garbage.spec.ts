import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Logger } from './logger';
import { LAST_RESORT_GC, releaseStartupGarbage } from './startup-garbage';

const logger = () => {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, log: { info: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } as unknown as Logger };
};

describe('releaseStartupGarbage', () => {
  const g = globalThis as { gc?: unknown };
  const had = g.gc;
  afterEach(() => {
    if (had === undefined) delete g.gc;
    else g.gc = had;
  });

  it("runs V8's compacting full collection once (a plain one on Node 20's V8 11) and logs what it gave back", () => {
    const calls: unknown[] = [];
    g.gc = (opts: unknown) => calls.push(opts);
    const { lines, log } = logger();
    releaseStartupGarbage(log);
    expect(LAST_RESORT_GC).toBe(Number(process.versions.node.split('.')[0]) >= 22);
    expect(calls).toEqual([LAST_RESORT_GC ? { type: 'major', execution: 'sync', flavor: 'last-resort' } : undefined]);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.msg).toBe('start-up garbage collected');
    expect(lines[0]!.obj).toEqual({
      ms: expect.any(Number),
      cpuMs: expect.any(Number),
      heapTotalMb: [expect.any(Number), expect.any(Number)],
      rssMb: [expect.any(Number), expect.any(Number)],
    });
  });

  it('does nothing in a process started without --expose-gc', () => {
    delete g.gc;
    const { lines, log } = logger();
    releaseStartupGarbage(log);
    expect(lines).toEqual([]);
  });

  it("gives a real process's start-up garbage back (node --expose-gc, the services' flag)", () => {
    // 60 MB of short-lived objects made while "starting", then the collection: the heap shrinks
    const script = `
      require('tsx/cjs');
      const { releaseStartupGarbage } = require(${JSON.stringify(join(__dirname, 'startup-garbage.ts'))});
      let keep = [];
      for (let i = 0; i < 600; i++) keep.push(new Array(12_500).fill({ i }));
      keep = undefined;
      releaseStartupGarbage({ info: (obj) => console.log(JSON.stringify(obj)) });`;
    const run = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.stderr).toBe('');
    const { heapTotalMb } = JSON.parse(run.stdout) as { heapTotalMb: [number, number] };
    expect(heapTotalMb[0] - heapTotalMb[1]).toBeGreaterThan(30);
  });
});
