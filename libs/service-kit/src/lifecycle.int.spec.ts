import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

jest.setTimeout(30_000);

/**
 * A process that stops on signals with exitOnSignals, its stop taking `stopMs`; prints 'ready' once its handlers are
 * installed, and each log line it is given.
 */
function stoppingProcess(stopMs: number) {
  const lifecycle = resolve(__dirname, 'lifecycle.ts');
  const code = `
    const { exitOnSignals } = require(${JSON.stringify(lifecycle)});
    const log = (level) => (obj, msg) => console.log(level, typeof obj === 'string' ? obj : msg);
    exitOnSignals({ info: log('info'), error: log('error') }, () => new Promise((r) => setTimeout(r, ${stopMs})));
    setInterval(() => {}, 1000);
    console.log('ready');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<void>((done) =>
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.includes('ready')) done();
    }),
  );
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  return { child, ready, exited, output: () => output };
}

describe('exitOnSignals', () => {
  it('stops gracefully once, however many signals come while it stops', async () => {
    const p = stoppingProcess(400);
    await p.ready;
    p.child.kill('SIGINT'); // Ctrl+C
    await new Promise((r) => setTimeout(r, 100));
    p.child.kill('SIGINT'); // Ctrl+C again, or the tsx CLI relaying it
    p.child.kill('SIGTERM'); // a supervisor's stop
    expect(await p.exited).toEqual({ code: 0, signal: null });
    expect(p.output().match(/shutting down/g)).toHaveLength(1);
    expect(p.output()).toContain('info stopped');
  });
});
