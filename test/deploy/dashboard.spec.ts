/**
 * deploy/grafana/finalize-pipeline.json: a Grafana dashboard whose every query names metrics the services
 * export (libs/telemetry, libs/outbox, prom-client's process metrics) or RabbitMQ's own (rabbitmq_*), so a
 * renamed metric cannot leave a dashboard panel silently empty.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import '@inv/outbox';
import { metricsRegistry, startProcessMetrics } from '@inv/telemetry';

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync(path.resolve(__dirname, '../../deploy/grafana/finalize-pipeline.json'), 'utf8')) as {
  uid: string;
  panels: Panel[];
};
const PROMQL_WORDS = new Set(['sum', 'by', 'rate', 'increase', 'histogram_quantile', 'max', 'le', 'without', 'on', 'ignoring']);

describe('the finalize pipeline dashboard', () => {
  startProcessMetrics();
  const exported = new Set(
    metricsRegistry.getMetricsAsArray().flatMap((m) => {
      const name = (m as unknown as { name: string; type: string }).name;
      return (m as unknown as { type: string }).type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name];
    }),
  );
  const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

  it('has panels with queries, a stable uid and the finalize histogram by phase', () => {
    expect(dashboard.uid).toBe('invoicing-finalize');
    expect(queries.length).toBeGreaterThan(10);
    expect(queries.some((q) => q.expr.includes('invoice_finalize_phase_duration_seconds_bucket') && q.expr.includes('phase'))).toBe(true);
  });

  it('queries only metrics that exist', () => {
    const seen: string[] = [];
    const unknown = queries.flatMap(({ panel, expr }) => {
      // metric names: identifiers directly followed by a label matcher or a range, outside the label sets
      const bare = expr.replace(/\{[^}]*\}/g, '{}').replace(/"[^"]*"/g, '""');
      const names = [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?=\{|\[)/g)].map((m) => m[1]).filter((n) => !PROMQL_WORDS.has(n));
      seen.push(...names);
      return names.filter((n) => !n.startsWith('rabbitmq_') && !exported.has(n)).map((n) => `${panel}: ${n}`);
    });
    expect(new Set(seen).size).toBeGreaterThan(10);
    expect(unknown).toEqual([]);
  });

  it('would notice a metric that does not exist', () => {
    expect(exported.has('invoice_finalize_phase_duration_seconds_bucket')).toBe(true);
    expect(exported.has('outbox_pending_entries')).toBe(true);
    expect(exported.has('invoice_finalize_duration_seconds_bucket')).toBe(false);
  });
});
