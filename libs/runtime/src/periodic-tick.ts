/**
 * Work done on a clock: once at start, then every `everyMs` (recurring-service's scheduler, inbound-service's sweep
 * for waiting documents, invoice-service's daily reminder run). The work itself keeps its state in MongoDB, so a
 * restarted replica simply ticks again and catches up.
 */
export interface PeriodicTickOptions<T> {
  /** Milliseconds between ticks; 0 or less turns the clock off: `start()` does nothing, `tick()` still runs one. */
  everyMs: number;
  /** One tick. `signal` aborts when `stop()` is called: a long tick ends early at a safe point. */
  run(signal: AbortSignal): Promise<T>;
  /** A tick that failed, to log: it is never thrown (the next tick tries again). */
  onError(err: unknown): void;
}

export interface PeriodicTick<T> {
  /**
   * Runs a tick now, or joins the one running (a tick still running when the next is due is not doubled); answers its
   * result, or undefined when it failed or the loop is stopped. Tests call it after moving their clock.
   */
  tick(): Promise<T | undefined>;
  /** Ticks now and then every `everyMs` (an unref'd timer: it never keeps the process alive); answers the first tick. */
  start(): Promise<T | undefined>;
  /** No more ticks: clears the timer, aborts the signal and waits for the tick running. */
  stop(): Promise<void>;
}

export function periodicTick<T>(opts: PeriodicTickOptions<T>): PeriodicTick<T> {
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<T | undefined> | undefined;

  const tick = (): Promise<T | undefined> => {
    if (current) return current;
    if (stopping.signal.aborted) return Promise.resolve(undefined);
    const running = (async () => {
      try {
        return await opts.run(stopping.signal);
      } catch (err) {
        opts.onError(err);
        return undefined;
      }
    })().finally(() => {
      current = undefined;
    });
    current = running;
    return running;
  };

  return {
    tick,
    start() {
      if (opts.everyMs <= 0) return Promise.resolve(undefined);
      const first = tick();
      if (!timer && !stopping.signal.aborted) {
        timer = setInterval(() => void tick(), opts.everyMs);
        timer.unref();
      }
      return first;
    },
    async stop() {
      clearInterval(timer);
      stopping.abort();
      await current;
    },
  };
}
