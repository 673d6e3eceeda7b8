import type { Logger } from './logger';

type Gc = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: 'regular' | 'last-resort' }) => void;

/**
 * One full, compacting garbage collection once a service has started, before it listens (idle RSS).
 * Starting leaves garbage behind: every module's source and top-level code, the schemas built from it, the OpenAPI
 * document, the render worker's warm-up. V8 keeps the pages that held it, and the young generation at the size the
 * start grew it to, until its memory reducer decides the process is idle; on Node 24 it did not within 90 s of idling
 * (account-service stayed at 150-153 MB), on Node 22 it did after 15-40 s, or never for some services. Collecting
 * once here gives those pages back at once. V8 before 12 (Node 20) knows no `flavor` and, given these options, gave
 * nothing back (heap 100 -> 100 MB); a plain `gc()` there does (100 -> 36 MB), so that is what it gets. Idle RSS on Node 24 (test/bench/idle.bench.ts): account-service
 * 152 -> 125 MB, invoice-service 141 -> 114, document-service 185 -> 142 (with its render worker's own collection
 * after the warm-up render; docs/performance.md).
 *
 * `gc` is V8's, exposed by `--expose-gc` (SERVICE_NODE_FLAGS, libs/runtime/src/node-flags.ts); where a process runs
 * without it (the tests' in-process services) nothing happens. It runs before the HTTP server listens, so no request
 * waits for it; it delays the service's readiness by its duration, and bus messages that arrive meanwhile wait as
 * long: 100-180 ms of CPU, 60-360 ms of wall time with all eight services starting at once on two cores (a plain
 * major collection, 30-90 ms, gave nothing back: only V8's collection for memory pressure compacts).
 */
/** V8 12 (Node 22) and later take `flavor: 'last-resort'`; Node 20's V8 11 does not. */
export const LAST_RESORT_GC = Number(process.versions.v8.split('.')[0]) >= 12;

export function releaseStartupGarbage(logger: Logger): void {
  const gc = (globalThis as { gc?: Gc }).gc;
  if (typeof gc !== 'function') return;
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  const before = process.memoryUsage();
  const started = performance.now();
  const cpu = process.cpuUsage();
  // 'last-resort': V8's collection for memory pressure (compacts, gives the freed pages back)
  if (LAST_RESORT_GC) gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  else gc();
  const after = process.memoryUsage();
  const { user, system } = process.cpuUsage(cpu);
  logger.info(
    {
      ms: Math.round(performance.now() - started),
      cpuMs: Math.round((user + system) / 1000),
      heapTotalMb: [mb(before.heapTotal), mb(after.heapTotal)],
      rssMb: [mb(before.rss), mb(after.rss)],
    },
    'start-up garbage collected',
  );
}
