/**
 * The node flags every service process runs with. The image's commands (k8s/base/services, deploy/docker-compose.yml,
 * deploy/Dockerfile) list exactly these (test/deploy checks it), and the launcher (npm start, the tests, the
 * benchmarks) adds them where the running Node knows them, so that what is measured is what runs.
 *
 * `--experimental-async-context-frame` (Node 22.7+; Node 24 does this by default and no longer needs it): the
 * AsyncLocalStorage stores (the bus's correlation id and actor, the request's actor, OpenTelemetry's active span)
 * are carried by V8 along with each promise continuation, instead of by async_hooks' promise hooks, which call into
 * JavaScript for every promise the process creates. bench:finalize, alternating A-B-B-A (docs/performance.md):
 * the first 100 invoices after a cold start 14.2-15.3 -> 15.6-18.7 invoices/s, 115-126 -> 95-114 CPU ms per invoice.
 * We use only `run` and `getStore`, whose behaviour is the same in both implementations; the whole test suite passes
 * with the flag on Node 22.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--experimental-async-context-frame'];

/** SERVICE_NODE_FLAGS if this Node version knows them (22.7+ and 23), else none (Node 20 of development machines). */
export function serviceNodeFlags(version: string = process.versions.node): string[] {
  const [major, minor] = version.split('.').map(Number);
  return (major === 22 && minor >= 7) || major === 23 ? [...SERVICE_NODE_FLAGS] : [];
}
