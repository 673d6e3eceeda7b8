/**
 * Calls made in the same turn of the event loop, or while the previous round trip is under way, go to MongoDB as
 * one (at most `max` items): `run` answers one result per item, in order, and each `add` settles with its own (or
 * with the error of the whole round trip).
 */
export function coalesced<T, R>(run: (items: T[]) => Promise<R[]>, max = 500) {
  const queue: { item: T; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  let scheduled = false;
  let running = false;
  const flush = async () => {
    scheduled = false;
    if (running || !queue.length) return;
    running = true;
    const batch = queue.splice(0, max);
    try {
      const results = await run(batch.map((q) => q.item));
      batch.forEach((q, i) => q.resolve(results[i] as R));
    } catch (err) {
      for (const q of batch) q.reject(err);
    } finally {
      running = false;
      if (queue.length) schedule();
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  };
  return {
    add: (item: T) =>
      new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      }),
  };
}
