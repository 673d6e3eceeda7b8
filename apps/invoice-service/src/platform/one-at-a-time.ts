/**
 * Runs work one at a time per key within this process: a call starts when every earlier call with the same
 * key has settled (fulfilled or rejected). Used where concurrent MongoDB transactions would only conflict on
 * the same document and retry (a company's numbering sequence): queued here they never conflict within one
 * replica; replicas still conflict with each other and retry, as before.
 */
export function oneAtATime() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
