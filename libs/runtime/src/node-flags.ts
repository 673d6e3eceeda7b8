import { setFlagsFromString } from 'node:v8';

/**
 * The node flags the service processes run with, the same for every service. The image's commands
 * (k8s/base/services, deploy/docker-compose.yml, deploy/Dockerfile) list exactly those (test/deploy checks it), and the
 * launcher (npm start, the tests, the benchmarks) adds them where the running Node knows them, so that what is
 * measured is what runs.
 *
 * AsyncLocalStorage (the bus's correlation id and actor, the request's actor, OpenTelemetry's active span) is carried
 * by V8 along with each promise continuation on Node 24, the image's Node (AsyncContextFrame, its default since 24),
 * instead of by async_hooks' promise hooks, which call into JavaScript for every promise the process creates. On
 * Node 22.7+ and 23 the same needs `--experimental-async-context-frame` (Node 24 refuses that flag), which the
 * launcher adds there, so a machine still on Node 22 runs the services as measured before the move to 24:
 * bench:finalize, alternating A-B-B-A on Node 22 (docs/performance.md): the first 100 invoices after a cold start
 * 14.2-15.3 -> 15.6-18.7 invoices/s, 115-126 -> 95-114 CPU ms per invoice. We use only `run` and `getStore`, whose
 * behaviour is the same in both implementations.
 *
 * `--expose-gc`: V8's `gc()`, which each service calls once, after its start and before it listens, to give back the
 * memory its start left behind (libs/service-kit/src/startup-garbage.ts); nothing else calls it.
 *
 * `--max-semi-space-size=8` (MB; V8's default is 16 on 64-bit machines): the young generation, where every
 * request's short-lived objects are allocated, at most 2 x 8 MB instead of 2 x 16. Under load V8 grows it to the
 * maximum and keeps it until its memory reducer notices the process is idle, which happened 30-40 s after the
 * start for some services and not at all for others (the gateway), so their idle RSS straddled the 150 MB target.
 * Alternating runs of bench:finalize (docs/performance.md): idle RSS 12-22 MB lower for every service (gateway
 * 137-142 -> 120 MB, account 150-151 -> 135-136), RSS under load as much lower, CPU per invoice within the noise;
 * the price is more frequent scavenges: invoice-service's GC pauses 1.2-1.8 -> 2.0-2.7 ms per invoice.
 * `--min-semi-space-size=8`: the young generation starts at that size instead of 1 MB. V8 grows it only after
 * scavenges in which much survived, so a service with little traffic per invoice (export-, quota-, customer-service)
 * grew it step by step over the first ~1,700 invoices, and its RSS with it: 9-13 % between the ends of the first and
 * the fourth round of 400 invoices after warm-up, against the issue's "flat (±10 %)". Started at its size, the
 * growth is 4-8 % (the gateway 9-10 %, its old generation settling); idle RSS is the same, because V8 commits the
 * pages but the process only uses what it touches (docs/performance.md, 2026-11-27).
 *
 * Both hold for document-service too since 2026-11-27. V8 reads them again for each isolate it creates and lets them
 * override a worker's `resourceLimits` (with 8, its render workers' young generations went from the 4 MB
 * render-pool.ts gives them to 3 x 8 MB), so render-pool.ts unsets them (`releaseYoungGenerationFlags`) before it
 * starts the workers. Without them its event loop's young generation grew to V8's 2 x 16 MB under load, the largest
 * part of the service's RSS growth over 1,600 invoices.
 */
/** Known to Node 22.7+ and 23 only (Node 24 does it by default and dropped the flag): never in the image's commands. */
const ASYNC_CONTEXT_FRAME = '--experimental-async-context-frame';
const SEMI_SPACE = '--max-semi-space-size=8';
const MIN_SEMI_SPACE = '--min-semi-space-size=8';
/** V8's `gc()`, for the one collection after the start (libs/service-kit startup-garbage.ts). */
const EXPOSE_GC = '--expose-gc';
/**
 * Node's DeprecationWarning for `util._extend` (DEP0060, a runtime deprecation since Node 22), which http-proxy 1.18.1,
 * the gateway's proxy (also the one under http-proxy-middleware 3), calls for every request it forwards: without this flag
 * the gateway wrote that warning to stderr at its first proxied request, in every pod and at every `npm start`. The
 * call itself is harmless (a shallow copy, as Object.assign). Only this one warning is silenced (Node 20.11+).
 */
const QUIET_UTIL_EXTEND = '--disable-warning=DEP0060';
/** The flags of the image's commands (Node 24). */
export const SERVICE_NODE_FLAGS: readonly string[] = [EXPOSE_GC, SEMI_SPACE, MIN_SEMI_SPACE, QUIET_UTIL_EXTEND];

/**
 * The environment every service process starts with, besides its configuration (the launcher adds it under what the
 * caller's environment sets; the image sets the same, deploy/Dockerfile).
 *
 * `MALLOC_ARENA_MAX=2`: glibc's malloc (the image is Debian's) gives a process up to 8 arenas per core, and each thread
 * that allocates (the event loop, libuv's pool, V8's helper threads, the render workers) may take one and keep what it
 * freed there. Node's buffers, zlib, TLS and the HTTP parser allocate through malloc; V8's own heap does not. With 2
 * arenas every service's RSS was 3-12 MB lower, idle and under load (document-service's peak 205-214 MB against
 * 217-226), its growth over 1,200 invoices after warm-up +3 to +9 % against +4 to +11 % (the gateway 137-138 -> 145-147
 * MB against 136-145 -> 150-158), CPU per invoice the same within the VM's drift (five alternating pairs of
 * bench:finalize, docs/performance.md 2026-11-27). A larger node than this 2-core one gives more arenas by default,
 * so more to gain there.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** V8's value for "not given" of both semi-space flags: isolates made after it get their size from their own limits. */
export const RELEASED_YOUNG_GENERATION_FLAGS = '--max-semi-space-size=0 --min-semi-space-size=0';

/**
 * Unsets the young generation's flags for the isolates this process makes from now on (worker threads), so that a
 * worker's `resourceLimits` decide its young generation again; the isolates made before keep theirs. Call it before
 * starting workers that have limits of their own.
 */
export function releaseYoungGenerationFlags(): void {
  setFlagsFromString(RELEASED_YOUNG_GENERATION_FLAGS);
}

/**
 * The flags the services run with on this Node version: SERVICE_NODE_FLAGS, with the async context frame asked for
 * on Node 22.7+ and 23, where it is not yet the default (Node 20 of development machines has none).
 */
export function serviceNodeFlags(version: string = process.versions.node): string[] {
  const [major, minor] = version.split('.').map(Number);
  const needsFrameFlag = (major === 22 && minor >= 7) || major === 23;
  return needsFrameFlag ? [ASYNC_CONTEXT_FRAME, ...SERVICE_NODE_FLAGS] : [...SERVICE_NODE_FLAGS];
}
