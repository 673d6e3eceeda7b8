import { spawnSync } from 'node:child_process';
import path from 'node:path';

jest.setTimeout(60_000);

interface FinishedSpan {
  name: string;
  traceId: string;
  parent?: string;
  attributes: Record<string, unknown>;
}

/**
 * The maintained mongodb and ioredis instrumentations make child spans inside a trace and none outside one,
 * without values. They patch Node's require, which Jest replaces, so the calls run in a process of their own.
 */
describe('library instrumentations (mongodb, ioredis)', () => {
  it('records MongoDB and Redis calls made inside a trace as its children, with no values and no spans outside a trace', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, '../test/instrumented-calls.ts')], {
      cwd: path.resolve(__dirname, '../../..'),
      encoding: 'utf8',
      timeout: 50_000,
    });
    if (run.status !== 0) throw new Error(`the instrumented process failed:\n${run.stderr}`);
    const spans = JSON.parse(run.stdout) as FinishedSpan[];
    const parent = spans.find((s) => s.name === 'parent')!;
    const system = (s: FinishedSpan) => s.attributes['db.system.name'] ?? s.attributes['db.system'];
    const db = spans.filter((s) => system(s) === 'mongodb');
    const cache = spans.filter((s) => system(s) === 'redis');
    expect(db.map((s) => s.attributes['db.collection.name'])).toEqual(['things']); // the call outside the trace made no span
    expect(cache.map((s) => s.attributes['db.operation.name'])).toEqual(['set']);
    for (const s of [...db, ...cache]) expect(s.traceId).toBe(parent.traceId);
    const text = JSON.stringify(spans);
    expect(text).not.toContain('ak_live_should_not_appear');
    expect(text).not.toContain('not-in-a-trace');
  });

  it('takes the patches off in a process that records no spans (no exporter)', () => {
    const run = (script: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, '../test', script)], {
        cwd: path.resolve(__dirname, '../../..'),
        encoding: 'utf8',
        timeout: 50_000,
      });
    const off = run('uninstrumented-calls.ts');
    if (off.status !== 0) throw new Error(`the uninstrumented process failed:\n${off.stderr}`);
    expect(JSON.parse(off.stdout)).toMatchObject({ commandWrapped: false });
  });
});
