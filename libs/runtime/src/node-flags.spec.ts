import { spawnSync } from 'node:child_process';
import { RELEASED_YOUNG_GENERATION_FLAGS, SERVICE_NODE_FLAGS, serviceNodeFlags } from './node-flags';

describe('serviceNodeFlags', () => {
  it("gives the image's flags to every Node version, and asks Node 22.7+ and 23 for the async context frame that 24 has by default", () => {
    expect(SERVICE_NODE_FLAGS).toEqual(['--expose-gc', '--max-semi-space-size=8', '--min-semi-space-size=8', '--disable-warning=DEP0060']);
    expect(serviceNodeFlags('24.21.0')).toEqual(SERVICE_NODE_FLAGS);
    expect(serviceNodeFlags('26.10.0')).toEqual(SERVICE_NODE_FLAGS);
    expect(serviceNodeFlags('22.23.3')).toEqual([
      '--experimental-async-context-frame',
      '--expose-gc',
      '--max-semi-space-size=8',
      '--min-semi-space-size=8',
      '--disable-warning=DEP0060',
    ]);
    expect(serviceNodeFlags('22.7.0')).toEqual([
      '--experimental-async-context-frame',
      '--expose-gc',
      '--max-semi-space-size=8',
      '--min-semi-space-size=8',
      '--disable-warning=DEP0060',
    ]);
    expect(serviceNodeFlags('23.11.1')).toEqual([
      '--experimental-async-context-frame',
      '--expose-gc',
      '--max-semi-space-size=8',
      '--min-semi-space-size=8',
      '--disable-warning=DEP0060',
    ]);
    expect(serviceNodeFlags('22.6.0')).toEqual(SERVICE_NODE_FLAGS);
    expect(serviceNodeFlags('20.20.2')).toEqual(SERVICE_NODE_FLAGS);
  });

  // document-service's render workers have a young generation of their own (render-pool.ts); the process's flags
  // would override it unless they are released before the workers start
  it("once released, leave a worker's young generation to its resourceLimits", () => {
    const newSpaceOfWorker = (release: boolean) => {
      const script = `
        const v8 = require('node:v8');
        const { Worker } = require('node:worker_threads');
        if (${release}) v8.setFlagsFromString(${JSON.stringify(RELEASED_YOUNG_GENERATION_FLAGS)});
        const worker = new Worker(\`
          const v8 = require('node:v8');
          const kept = [];
          for (let i = 0; i < 2e6; i++) { const o = { i, list: [i], text: 'x' + i }; if (i % 1000 === 0) kept.push(o); }
          const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
          require('node:worker_threads').parentPort.postMessage(space.space_size + kept.length * 0);
        \`, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
        worker.once('message', (size) => { process.stdout.write(String(size)); worker.terminate(); });`;
      const run = spawnSync(process.execPath, [...serviceNodeFlags(), '-e', script], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(run.stderr).toBe('');
      return Number(run.stdout) / 1024 ** 2;
    };
    expect(newSpaceOfWorker(false)).toBeGreaterThan(4);
    expect(newSpaceOfWorker(true)).toBeLessThanOrEqual(4);
  });

  it("silence only util._extend's deprecation (http-proxy calls it for every proxy the gateway makes)", () => {
    const stderrOf = (flags: string[], call: string) =>
      spawnSync(process.execPath, [...flags, '-e', call], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }).stderr;
    const extend = "require('node:util')._extend({}, { a: 1 })";
    // a runtime deprecation since Node 22 (documentation-only on 20, where nothing is written either way)
    if (Number(process.versions.node.split('.')[0]) >= 22) expect(stderrOf([], extend)).toContain('DEP0060');
    expect(stderrOf(serviceNodeFlags(), extend)).toBe('');
    // any other deprecation still shows
    const other = "process.emitWarning('gone soon', { type: 'DeprecationWarning', code: 'DEP9999' })";
    expect(stderrOf(serviceNodeFlags(), other)).toContain('DEP9999');
  });

  it('are flags this node starts with, and keep AsyncLocalStorage stores across awaits, timers and nested runs', () => {
    const script = `
      const { AsyncLocalStorage } = require('node:async_hooks');
      const als = new AsyncLocalStorage();
      const seen = [];
      const tick = () => new Promise((r) => setTimeout(r, 1));
      Promise.all([
        als.run('a', async () => { await tick(); seen.push(als.getStore()); await als.run('b', async () => { await null; seen.push(als.getStore()); }); seen.push(als.getStore()); }),
        als.run('c', async () => { await tick(); await tick(); seen.push(als.getStore()); }),
      ]).then(() => { seen.push(als.getStore()); console.log(JSON.stringify(seen)); });`;
    const run = spawnSync(process.execPath, [...serviceNodeFlags(), '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(['a', 'b', 'a', 'c', null]);
  });
});
