import { Counter, Histogram, collectDefaultMetrics, register, type Registry } from 'prom-client';

/**
 * Prometheus metrics of this process (prom-client's global registry), served at /metrics by every
 * service's HTTP app. One process usually runs one service (k8s); `apps/all` runs several in one process,
 * so the metrics that two services could both record carry a `service` label.
 *
 * Labels are bounded: route templates (never raw paths), message types from the contracts, fixed outcome
 * words. Nothing user-controlled becomes a label value.
 */
export const metricsRegistry: Registry = register;

/** Seconds buckets for HTTP and handler latency: 5 ms .. 30 s. */
const LATENCY = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds buckets for jobs (finalize, export): 50 ms .. 10 min. */
const JOB = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600];

let processMetricsStarted = false;
/** Process metrics (CPU, memory, GC, handles) and event-loop lag; once per process. */
export function startProcessMetrics(): void {
  if (processMetricsStarted) return;
  processMetricsStarted = true;
  // The lag histogram samples with a timer at this interval: every 10 ms (100 wake-ups a second) cost each idle
  // process about 4.5 ms of CPU a second, 35 ms a second for the eight services, 2-4 ms per invoice under the
  // benchmark. Every 100 ms still catches the stalls the dashboard is for (a render blocking the loop for
  // hundreds of ms) and costs about 0.5 ms a second.
  collectDefaultMetrics({ register, eventLoopMonitoringPrecision: 100 });
}

/** The text exposition of every metric of this process. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: register.contentType, body: await register.metrics() };
}

export const httpMetrics = {
  requests: new Counter({
    name: 'http_server_requests_total',
    help: 'HTTP requests answered, by route template and status',
    labelNames: ['service', 'method', 'route', 'status'] as const,
  }),
  duration: new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'HTTP request duration until the response finished, by route template and status',
    labelNames: ['service', 'method', 'route', 'status'] as const,
    buckets: LATENCY,
  }),
};

export const busMetrics = {
  published: new Counter({
    name: 'bus_messages_published_total',
    help: 'Messages published with a broker confirm, by message type',
    labelNames: ['service', 'type'] as const,
  }),
  publishFailed: new Counter({
    name: 'bus_messages_publish_failed_total',
    help: 'Publishes that got no confirm (nack, timeout, broker unreachable), by message type',
    labelNames: ['service', 'type'] as const,
  }),
  consumed: new Counter({
    name: 'bus_messages_consumed_total',
    help: 'Deliveries handled successfully and acked, by message type',
    labelNames: ['service', 'type'] as const,
  }),
  failed: new Counter({
    name: 'bus_messages_failed_total',
    help: 'Deliveries whose handler failed (then retried or parked), by message type',
    labelNames: ['service', 'type'] as const,
  }),
  retried: new Counter({
    name: 'bus_messages_retried_total',
    help: 'Failed deliveries sent to a retry queue, by message type',
    labelNames: ['service', 'type'] as const,
  }),
  parked: new Counter({
    name: 'bus_messages_parked_total',
    help: 'Deliveries moved to the parking queue, by message type and reason',
    labelNames: ['service', 'type', 'reason'] as const,
  }),
  handlerDuration: new Histogram({
    name: 'bus_handler_duration_seconds',
    help: 'Message handler duration, by message type and outcome (ok|error)',
    labelNames: ['service', 'type', 'outcome'] as const,
    buckets: LATENCY,
  }),
  rpcDuration: new Histogram({
    name: 'bus_rpc_client_duration_seconds',
    help: 'RPC round trip seen by the caller, by request type and outcome (ok|remote_error|timeout|error)',
    labelNames: ['service', 'type', 'outcome'] as const,
    buckets: LATENCY,
  }),
};

/** Finalize pipeline phases: queue_wait (accepted -> renderer started), render (document-service), completion (rendered -> invoice OPEN), total. */
export type FinalizePhase = 'queue_wait' | 'render' | 'completion' | 'total';

export const jobMetrics = {
  finalize: new Histogram({
    name: 'invoice_finalize_phase_duration_seconds',
    help: 'Finalize job duration by phase (queue_wait, render, completion, total) and outcome (finished|failed)',
    labelNames: ['phase', 'outcome'] as const,
    buckets: JOB,
  }),
  export: new Histogram({
    name: 'export_job_duration_seconds',
    help: 'Accounting export job duration from request to finished or failed',
    labelNames: ['outcome'] as const,
    buckets: JOB,
  }),
  quotaReservations: new Counter({
    name: 'quota_reservations_total',
    help: "Quota reservation decisions (reserved, exhausted, test_mode: a test twin's, not counted) and releases (released)",
    labelNames: ['outcome'] as const,
  }),
};

export const peerDataMetrics = {
  lookups: new Counter({
    name: 'peer_data_lookups_total',
    help: "Lookups of another service's data kept as copies (kind: seller, buyer) by outcome: hit (a current copy), miss (asked the owner, kept the answer), bypass (asked the owner: cache off or Redis not answering)",
    labelNames: ['kind', 'outcome'] as const,
  }),
};

export const viesMetrics = {
  requests: new Counter({
    name: 'vies_requests_total',
    help: 'VIES SOAP calls by outcome (valid, invalid, unavailable)',
    labelNames: ['outcome'] as const,
  }),
  duration: new Histogram({
    name: 'vies_request_duration_seconds',
    help: 'VIES SOAP call latency by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30],
  }),
  cache: new Counter({
    name: 'vies_cache_lookups_total',
    help: 'VAT check cache lookups by result (hit, miss)',
    labelNames: ['result'] as const,
  }),
};

/** Seconds since `start` (a `process.hrtime.bigint()` value). */
export const secondsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;
