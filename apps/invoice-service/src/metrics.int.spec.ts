import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { deleteBrokerObjects, deleteRedisKeys, peerBus, testEnv, testStores, uniquePrefix, waitFor, serviceCaller } from '@inv/testing';
import { invoiceConfig } from './config';
import { createInvoiceService } from './invoice-service';
import { servePeerRpcs } from './testing/peer-rpcs';

jest.setTimeout(60_000);

/** The value of one sample in a Prometheus text exposition (0 when the series is absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const set = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => set.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

/**
 * invoice-service's /metrics after a finalization: the finalize histogram, HTTP by route template, bus
 * counters by message type and the outbox backlog. The renderer is played by a peer bus.
 */
describe('/metrics of invoice-service', () => {
  const prefix = uniquePrefix();
  let stores: Awaited<ReturnType<typeof testStores>>;
  let service: Awaited<ReturnType<typeof createInvoiceService>>;
  let url: string;
  let peer: Bus<Messages>;
  const company = 'cmp_metrics';

  const call = serviceCaller(() => url, company);
  const scrape = async () => {
    // no identity headers: Prometheus scrapes the pod directly, like the probes
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };

  beforeAll(async () => {
    stores = await testStores();
    peer = peerBus(prefix);
    servePeerRpcs(peer);
    peer.onCommand('document.render-invoice.v1', async (msg) => {
      const { jobId, invoiceId } = msg.data;
      await peer.publishEvent('document.render-started.v1', msg.companyId, { jobId, invoiceId });
      const pdf = {
        key: `${company}/invoices/${invoiceId}/invoice.pdf`,
        filename: 'invoice.pdf',
        contentType: 'application/pdf',
        size: 10,
      };
      await peer.publishEvent('document.rendered.v1', msg.companyId, { jobId, invoiceId, pdf });
    });
    await peer.start();
    service = await createInvoiceService(invoiceConfig.parse(testEnv(prefix, stores.mongoUrl, stores.s3Env)));
    url = (await service.start()).url;
  });

  afterAll(async () => {
    await service?.stop();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`); // the change tokens of the peer data copies
    await stores?.stop();
  });

  it('counts a finalization in the finalize histogram by phase, with HTTP, bus and outbox series', async () => {
    const total = { phase: 'total', outcome: 'finished' };
    const before = sample(await scrape(), 'invoice_finalize_phase_duration_seconds_count', total);

    const created = await call('POST', '/invoice/', { customer_id: 1, invoice_format: 'ZUGFERD' });
    expect(created.status).toBe(201);
    const id = created.body.invoice_id as number;
    expect(
      (
        await call('POST', `/invoice/${id}/positions`, {
          title: 'Consulting',
          quantity: 1,
          unit_id: 'HUR',
          unit_net_amount: 100,
          single_net_amount: 100,
          tax_rate: 0.19,
        })
      ).status,
    ).toBe(201);
    const job = await call('POST', `/invoice/${id}/job`, { task: 'process_invoice_flag_invoice_send_job' });
    expect(job.status).toBe(201);
    await waitFor(async () => (await call('GET', `/invoice/${id}/job/${job.body.job_id}`)).body.status === 'finished');

    const text = await waitFor(async () => {
      const t = await scrape();
      return sample(t, 'invoice_finalize_phase_duration_seconds_count', total) === before + 1 && t;
    });
    for (const phase of ['queue_wait', 'completion']) {
      expect(sample(text, 'invoice_finalize_phase_duration_seconds_count', { phase, outcome: 'finished' })).toBeGreaterThanOrEqual(1);
    }
    expect(sample(text, 'invoice_finalize_phase_duration_seconds_bucket', { ...total, le: '+Inf' })).toBe(before + 1);
    // HTTP by route template (never the raw path with the invoice id)
    expect(
      sample(text, 'http_server_requests_total', { service: 'invoice-service', method: 'POST', route: '/invoice/:id/job', status: '201' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(`route="/invoice/${id}/job"`);
    // bus: consumed by type, RPC latency, published commands
    expect(
      sample(text, 'bus_messages_consumed_total', { service: 'invoice-service', type: 'document.rendered.v1' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'bus_rpc_client_duration_seconds_count', { service: 'invoice-service', type: 'quota.reserve.v1', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'bus_messages_published_total', { service: 'invoice-service', type: 'document.render-invoice.v1' }),
    ).toBeGreaterThanOrEqual(1);
    // outbox backlog is sampled at scrape time; process metrics and event-loop lag are there
    expect(text).toMatch(/^outbox_pending_entries\{service="invoice-service"\} \d+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  });

  it('counts drafts still holding audit events in the outbox backlog, with their age', async () => {
    // the relay stopped (as if the broker were unreachable): a draft's event stays in it
    await service.runtime.relay.stop();
    const createdAt = new Date(Date.now() - 60_000);
    await service.runtime.conn.db!.collection('invoices').insertOne({
      _id: 999_001 as never,
      companyId: company,
      status: 'DRAFT',
      pendingMessages: [
        { _id: 'held-1', kind: 'event', type: 'invoice.changed.v1', companyId: company, data: {}, trace: {}, createdAt, attempts: 0 },
      ],
    });
    const text = await scrape();
    expect(sample(text, 'outbox_pending_entries', { service: 'invoice-service' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'outbox_oldest_pending_age_seconds', { service: 'invoice-service' })).toBeGreaterThanOrEqual(59);
  });
});
