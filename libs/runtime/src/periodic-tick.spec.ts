import { periodicTick } from './periodic-tick';

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('periodicTick', () => {
  afterEach(() => jest.useRealTimers());

  it('ticks at start and then every everyMs', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const loop = periodicTick({ everyMs: 1000, run: async () => ++runs, onError: () => undefined });
    expect(await loop.start()).toBe(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    await jest.advanceTimersByTimeAsync(2000);
    expect(runs).toBe(4);
    await loop.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(4);
  });

  it('is off when everyMs is 0 or less: start() runs nothing, tick() still runs one', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const loop = periodicTick({ everyMs: 0, run: async () => ++runs, onError: () => undefined });
    expect(await loop.start()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(0);
    expect(await loop.tick()).toBe(1);
    await loop.stop();
  });

  it('does not double a slow tick: a tick due while one runs joins it', async () => {
    jest.useFakeTimers();
    let started = 0;
    let running = 0;
    let most = 0;
    const slow = gate();
    const loop = periodicTick({
      everyMs: 100,
      run: async () => {
        started++;
        most = Math.max(most, ++running);
        await slow.opened;
        running--;
        return started;
      },
      onError: () => undefined,
    });
    const first = loop.start();
    await jest.advanceTimersByTimeAsync(1000); // ten ticks due while the first runs
    const joined = loop.tick();
    expect(started).toBe(1);
    slow.open();
    expect(await first).toBe(1);
    expect(await joined).toBe(1);
    expect(most).toBe(1);
    // the next tick is a new one
    expect(await loop.tick()).toBe(2);
    await loop.stop();
  });

  it('stop() aborts the signal and waits for the running tick; no tick runs after it', async () => {
    const release = gate();
    let seen: AbortSignal | undefined;
    let finished = false;
    let runs = 0;
    const loop = periodicTick({
      everyMs: 60_000,
      run: async (signal) => {
        runs++;
        seen = signal;
        await release.opened;
        finished = true;
      },
      onError: () => undefined,
    });
    void loop.start();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    expect(seen?.aborted).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    expect(finished).toBe(true);
    expect(await loop.tick()).toBeUndefined();
    expect(runs).toBe(1);
  });

  it('logs a failed tick instead of throwing, and the next tick runs again', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const loop = periodicTick({
      everyMs: 60_000,
      run: async () => {
        if (++calls === 1) throw new Error('MongoDB went away');
        return 'ok';
      },
      onError: (err) => errors.push(err),
    });
    expect(await loop.start()).toBeUndefined();
    expect(errors).toEqual([new Error('MongoDB went away')]);
    expect(await loop.tick()).toBe('ok');
    await loop.stop();
  });

  it('catches a tick that throws before its first await', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const loop = periodicTick<number>({
      everyMs: 0,
      run: () => {
        if (++calls === 1) throw new Error('synchronous');
        return Promise.resolve(calls);
      },
      onError: (err) => errors.push(err),
    });
    expect(await loop.tick()).toBeUndefined();
    expect(await loop.tick()).toBe(2);
    expect(errors).toHaveLength(1);
    await loop.stop();
  });
});
