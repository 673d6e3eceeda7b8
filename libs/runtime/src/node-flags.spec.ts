import { spawnSync } from 'node:child_process';
import { nodeFlagsOf, SERVICE_NODE_FLAGS, serviceNodeFlags } from './node-flags';

describe('serviceNodeFlags', () => {
  it("gives the image's flags to every Node version, and asks Node 22.7+ and 23 for the async context frame that 24 has by default", () => {
    expect(SERVICE_NODE_FLAGS).toEqual(['--expose-gc', '--max-semi-space-size=8']);
    expect(serviceNodeFlags('24.21.0')).toEqual(SERVICE_NODE_FLAGS);
    expect(serviceNodeFlags('26.10.0')).toEqual(SERVICE_NODE_FLAGS);
    expect(serviceNodeFlags('22.23.3')).toEqual(['--experimental-async-context-frame', '--expose-gc', '--max-semi-space-size=8']);
    expect(serviceNodeFlags('22.7.0')).toEqual(['--experimental-async-context-frame', '--expose-gc', '--max-semi-space-size=8']);
    expect(serviceNodeFlags('23.11.1')).toEqual(['--experimental-async-context-frame', '--expose-gc', '--max-semi-space-size=8']);
    expect(serviceNodeFlags('22.6.0')).toEqual(SERVICE_NODE_FLAGS);
    expect(serviceNodeFlags('20.20.2')).toEqual(SERVICE_NODE_FLAGS);
  });

  it("leaves V8's semi-space size out of document-service's flags (it would override its render worker's young generation)", () => {
    expect(nodeFlagsOf('invoice-service')).toEqual(SERVICE_NODE_FLAGS);
    expect(nodeFlagsOf('gateway')).toEqual(SERVICE_NODE_FLAGS);
    expect(nodeFlagsOf('document-service')).toEqual(['--expose-gc']);
    expect(serviceNodeFlags('24.21.0', 'document-service')).toEqual(['--expose-gc']);
    expect(serviceNodeFlags('22.23.3', 'document-service')).toEqual(['--experimental-async-context-frame', '--expose-gc']);
    expect(serviceNodeFlags('20.20.2', 'document-service')).toEqual(['--expose-gc']);
    expect(serviceNodeFlags('20.20.2', 'account-service')).toEqual(SERVICE_NODE_FLAGS);
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
