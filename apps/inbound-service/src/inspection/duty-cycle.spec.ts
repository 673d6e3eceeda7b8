import { dutyCycle } from './duty-cycle';

describe('dutyCycle', () => {
  it('runs one at a time and rests (1 / share - 1) times the work before the next', async () => {
    const gate = dutyCycle(0.5);
    const log: string[] = [];
    const t0 = performance.now();
    const job = (name: string) =>
      gate.run(async () => {
        log.push(`start ${name} ${Math.round((performance.now() - t0) / 10) * 10}`);
        await new Promise((r) => setTimeout(r, 100));
        return name;
      });
    expect(await Promise.all([job('a'), job('b')])).toEqual(['a', 'b']);
    const startB = Number(log[1]!.split(' ')[2]);
    expect(log[0]).toBe('start a 0');
    expect(startB).toBeGreaterThanOrEqual(190); // 100 ms of work, 100 ms of rest
  });

  it('goes on after a failure; share 1 does not rest', async () => {
    const gate = dutyCycle(1);
    await expect(gate.run(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    const t0 = performance.now();
    await gate.run(() => new Promise((r) => setTimeout(r, 50)));
    expect(await gate.run(async () => performance.now() - t0)).toBeLessThan(90);
  });
});
