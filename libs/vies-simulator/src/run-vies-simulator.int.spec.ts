import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The stand-alone CLI as a developer runs it: `npx tsx libs/vies-simulator/src/run-vies-simulator.ts`. */
describe('run-vies-simulator CLI', () => {
  const cli = join(__dirname, 'run-vies-simulator.ts');
  const run = (...args: string[]): ChildProcess =>
    spawn(process.execPath, [require.resolve('tsx/cli'), cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exitOf = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stderrOf = (child: ChildProcess): (() => string) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    return () => text;
  };

  it('prints a loud warning with the URL to use as VIES_URL, serves there, and exits 0 on SIGTERM', async () => {
    const child = run('--slow-ms', '100');
    const stderr = stderrOf(child);
    const exited = exitOf(child);
    try {
      let url: string | undefined;
      const deadline = Date.now() + 20_000;
      while (!url && Date.now() < deadline && child.exitCode === null) {
        url = /VIES SIMULATOR listening at (\S+)/.exec(stderr())?.[1];
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(stderr()).toMatch(/SIMULATED, not real VIES answers/);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/taxation_customs\/vies\/services\/checkVatService$/);
      expect(await (await fetch(`${url}?wsdl`)).text()).toContain('checkVatService');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 30_000);

  it.each([
    ['--port', '-1'],
    ['--slow-ms', 'x'],
  ])(
    'rejects %s %s and exits 1',
    async (name, value) => {
      const child = run(name, value);
      const stderr = stderrOf(child);
      expect(await exitOf(child)).toBe(1);
      expect(stderr()).toContain(`${name} needs a non-negative integer`);
    },
    30_000,
  );
});
