/**
 * Admission to one upstream service: at most `maxInFlight` requests forwarded at once (the proxy's sockets to
 * that service), up to `maxQueue` more waiting at most `queueTimeoutMs` for a slot, beyond that a refusal the
 * caller answers with 503 + Retry-After. Forwarding only what has a slot means Node's agent never queues a
 * request itself: its queue was unbounded, and a request that waited there got its socket after its body had
 * been flushed, which is where the proxy's header handling once threw an uncaught ERR_HTTP_HEADERS_SENT and
 * took the gateway down. A waiter whose client goes away leaves the queue at once.
 *
 * Hand-written because it is a counter and a FIFO tied to a request's lifetime (release on `close`); the
 * semaphore libraries (p-limit, async-sema) have no bounded queue with per-waiter timeout and cancellation.
 */
export interface GateOptions {
  maxInFlight: number;
  maxQueue: number;
  queueTimeoutMs: number;
}

export type Admission = { ok: true; release: () => void } | { ok: false; reason: 'queue_full' | 'queue_timeout' | 'gone' };

interface Waiter {
  grant: (a: Admission) => void;
  timer: NodeJS.Timeout;
}

export class UpstreamGate {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly opts: GateOptions) {}

  get stats() {
    return { inFlight: this.inFlight, queued: this.queue.length };
  }

  /** Waits for a slot; `signal` aborts the wait (the client went away). The release is idempotent. */
  acquire(signal?: AbortSignal): Promise<Admission> {
    if (this.inFlight < this.opts.maxInFlight && this.queue.length === 0) return Promise.resolve(this.granted());
    if (this.queue.length >= this.opts.maxQueue) return Promise.resolve({ ok: false, reason: 'queue_full' });
    if (signal?.aborted) return Promise.resolve({ ok: false, reason: 'gone' });
    return new Promise<Admission>((resolve) => {
      const leave = (a: Admission) => {
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        resolve(a);
      };
      const onAbort = () => leave({ ok: false, reason: 'gone' });
      const waiter: Waiter = {
        grant: leave,
        timer: setTimeout(() => leave({ ok: false, reason: 'queue_timeout' }), this.opts.queueTimeoutMs),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private granted(): Admission {
    this.inFlight++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
        const next = this.queue[0];
        if (next && this.inFlight < this.opts.maxInFlight) next.grant(this.granted());
      },
    };
  }
}

/**
 * In-flight requests per key (a company) on this replica, at most `max` each. Counted from admission until the
 * answer is finished or the client is gone; `tryEnter` never waits.
 */
export class PerKeyCounter {
  private readonly counts = new Map<string, number>();

  constructor(readonly max: number) {}

  count(key: string) {
    return this.counts.get(key) ?? 0;
  }

  /** A release function, or undefined when `key` is at its maximum. */
  tryEnter(key: string): (() => void) | undefined {
    const n = this.counts.get(key) ?? 0;
    if (n >= this.max) return undefined;
    this.counts.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left <= 0) this.counts.delete(key);
      else this.counts.set(key, left);
    };
  }
}
