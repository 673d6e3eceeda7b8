import { AppError } from '@inv/service-kit';

/**
 * Runs a read-check-write whose write is conditional on what was read (a revision) again when another request
 * changed the same list in between (409 CONCURRENT_MODIFICATION): the check runs on fresh data each time, so a
 * limit checked there holds under any concurrency, and parallel additions below it all succeed instead of all but
 * one answering 409. After `attempts` lost races the 409 goes to the client.
 */
export async function retryOnConcurrentChange<T>(work: () => Promise<T>, attempts = 25): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !(err instanceof AppError) || err.code !== 'CONCURRENT_MODIFICATION') throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 4 * Math.min(attempt, 5))); // spread the next round
    }
  }
}
