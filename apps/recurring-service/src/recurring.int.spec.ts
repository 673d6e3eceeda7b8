import {
  deleteBrokerObjects,
  deleteRedisKeys,
  identityHeaders,
  peerBus,
  serviceCaller,
  TEST_IDENTITY_KEY,
  testEnv,
  testMongo,
  uniquePrefix,
  waitFor,
} from '@inv/testing';
import { asCompanyId } from '@inv/contracts';
import { connectRedis, createCompanyRateLimit, GATEWAY_REDIS_NAMESPACE } from '@inv/service-kit';
import { recurringConfig } from './config';
import { createRecurringService } from './recurring-service';
import { startFakeInvoiceService, type FakeInvoiceService } from './testing/fake-invoice-service';
import { openApiSchemas } from './testing/openapi-schemas';
import { runDueSchedules } from './usecases/run-due-schedules';

jest.setTimeout(90_000);

type Service = Awaited<ReturnType<typeof createRecurringService>>;

describe('recurring-service', () => {
  const prefix = uniquePrefix();
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let fake: FakeInvoiceService;
  /** The scheduler's clock, shared by every replica of this test. */
  let now = new Date('2026-11-15T06:00:00Z');
  const started: Service[] = [];

  const replica = async (extra: Record<string, string> = {}) => {
    const config = recurringConfig.parse(
      testEnv(prefix, mongo.uri, {
        INVOICE_URL: fake.url,
        // ticks are driven by the tests (the one at start finds nothing due)
        RECURRING_TICK_MS: '3600000',
        RECURRING_LEASE_MS: '60000',
        RECURRING_HTTP_TIMEOUT_MS: '5000',
        ...extra,
      }),
    );
    const svc = await createRecurringService(config, { now: () => now });
    const listening = await svc.start();
    started.push(svc);
    // the tick at start (nothing due yet) is over before a test creates schedules
    await svc.scheduler.tick();
    return { svc, url: listening.url };
  };
  /** A full tick of a replica (after the one possibly still running). */
  const tick = async (svc: Service) => {
    await svc.scheduler.tick();
    return svc.scheduler.tick();
  };

  let main: { svc: Service; url: string };
  /** recurring-invoice.run-finished.v1 as another service receives it. */
  let peer: ReturnType<typeof peerBus>;
  const announced: { id: string; companyId: string; data: Record<string, unknown> }[] = [];
  /** recurring-invoice.changed.v1 as the audit log receives it. */
  const changes: { companyId: string; data: { recurringId: number; action: string; fields: string[] } }[] = [];
  const api = (companyId: string) => serviceCaller(() => main.url, companyId);

  const template = (customerId = 7, extra: Record<string, unknown> = {}) => ({
    customer_id: customerId,
    invoice_format: 'XRECHNUNG',
    buyer_reference: '04011000-12345-03',
    note: 'Rent as agreed in the lease of 2024-01-01.',
    meta: { contract: 'L-42' },
    positions: [
      { title: 'Office rent', quantity: '1', unit_id: 'MON', unit_net_amount: '1200.00', tax_rate: '0.19' },
      { title: 'Service charge', quantity: 1, unit_id: 'MON', unit_net_amount: 150, tax_rate: '0.19' },
    ],
    ...extra,
  });

  beforeAll(async () => {
    mongo = await testMongo();
    peer = peerBus(prefix);
    peer.onEvent('recurring-log', ['recurring-invoice.run-finished.v1'], async (msg) => {
      announced.push({ id: msg.id, companyId: msg.companyId, data: msg.data as Record<string, unknown> });
    });
    peer.onEvent('recurring-changes', ['recurring-invoice.changed.v1'], async (msg) => {
      changes.push({ companyId: msg.companyId, data: msg.data });
    });
    await peer.start();
    fake = await startFakeInvoiceService(TEST_IDENTITY_KEY);
    main = await replica();
  });
  afterAll(async () => {
    for (const s of started) await s.stop().catch(() => undefined);
    await fake?.close();
    await peer?.stop();
    await deleteBrokerObjects(prefix);
    await deleteRedisKeys(`${prefix}:`);
    await mongo?.stop();
  });

  it('creates, reads, lists, changes and deletes a schedule; ids start at 1 per company', async () => {
    const call = api('cmp_crud');
    const created = await call('POST', '/recurring-invoices/', {
      name: 'Rent',
      template: template(),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 1,
      status: 'active',
      next_run_date: '2026-12-01',
      last_run: null,
      auto_finalize: false,
      auto_send_email: false,
      paused_reason: null,
    });
    expect(created.body.template.positions).toHaveLength(2);
    expect(
      (
        await call('POST', '/recurring-invoices/', {
          template: template(),
          schedule: { interval: 'yearly', day_of_month: 'last', start_date: '2027-02-01' },
        })
      ).body,
    ).toMatchObject({
      id: 2,
      next_run_date: '2027-02-28',
    });
    expect(
      (
        await api('cmp_crud_other')('POST', '/recurring-invoices/', {
          template: template(),
          schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01' },
        })
      ).body.id,
    ).toBe(1);

    const list = await call('GET', '/recurring-invoices/?limit=1');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, page: 1, limit: 1 });
    expect(list.body.recurring_invoices[0].id).toBe(2);

    const changed = await call('PUT', '/recurring-invoices/1', {
      status: 'paused',
      schedule: { interval: 'quarterly', day_of_month: 15, start_date: '2026-12-01' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'paused', paused_reason: 'user', next_run_date: '2026-12-15' });
    expect((await call('GET', '/recurring-invoices/1')).body.schedule.interval).toBe('quarterly');
    expect((await call('GET', '/recurring-invoices/1/runs')).body).toMatchObject({ runs: [], total: 0 });

    expect((await call('DELETE', '/recurring-invoices/2')).status).toBe(200);
    expect((await call('GET', '/recurring-invoices/2')).status).toBe(404);
  });

  it('announces each change of a schedule for the audit log: created, updated, paused, resumed, deleted (field names only)', async () => {
    const call = api('cmp_changes');
    const created = await call('POST', '/recurring-invoices/', {
      name: 'Rent',
      template: template(),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01' },
    });
    expect(created.status).toBe(201);
    const path = `/recurring-invoices/${created.body.id}`;
    expect((await call('PUT', path, { name: 'Office rent' })).status).toBe(200);
    expect((await call('PUT', path, { status: 'paused' })).status).toBe(200);
    expect((await call('PUT', path, { status: 'active' })).status).toBe(200);
    expect((await call('PUT', path, { status: 'sleeping' })).status).toBe(400); // refused: nothing changed, nothing announced
    expect((await call('DELETE', path)).status).toBe(200);
    expect((await call('DELETE', path)).status).toBe(404);
    const mine = () => changes.filter((c) => c.companyId === 'cmp_changes').map((c) => c.data);
    await waitFor(async () => mine().length >= 5, { what: 'five change announcements' });
    await new Promise((r) => setTimeout(r, 300)); // a sixth would have arrived by now
    expect(mine()).toEqual([
      { recurringId: created.body.id, action: 'created', fields: ['name', 'template', 'schedule', 'auto_finalize', 'auto_send_email'] },
      { recurringId: created.body.id, action: 'updated', fields: ['name'] },
      { recurringId: created.body.id, action: 'paused', fields: ['status'] },
      { recurringId: created.body.id, action: 'resumed', fields: ['status'] },
      { recurringId: created.body.id, action: 'deleted', fields: [] },
    ]);
  });

  it('lets a viewer read and only roles with invoices:write change (checked again by the service)', async () => {
    const as = async (role: string, method: string, path: string, body?: unknown) =>
      fetch(`${main.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(await identityHeaders('cmp_roles', { role })) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const create = { template: template(), schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01' } };
    const denied = await as('viewer', 'POST', '/recurring-invoices/', create);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ missing_permission: 'invoices:write' });
    expect((await as('member', 'POST', '/recurring-invoices/', create)).status).toBe(201);
    expect((await as('viewer', 'GET', '/recurring-invoices/1')).status).toBe(200);
    expect((await as('viewer', 'GET', '/recurring-invoices/1/runs')).status).toBe(200);
    expect((await as('viewer', 'DELETE', '/recurring-invoices/1')).status).toBe(403);
  });

  it('refuses unknown fields, unbounded and inconsistent input with 400 problem+json', async () => {
    const call = api('cmp_bad');
    const schedule = { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01' };
    const unknown = await call('POST', '/recurring-invoices/', { template: template(), schedule, colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UNKNOWN_FIELD');
    const nested = await call('POST', '/recurring-invoices/', {
      template: { ...template(), positions: [{ ...template().positions[0], prize: 1 }] },
      schedule,
    });
    expect(nested.status).toBe(400);
    expect(nested.body.code).toBe('UNKNOWN_FIELD');
    const day31 = await call('POST', '/recurring-invoices/', { template: template(), schedule: { ...schedule, day_of_month: 31 } });
    expect(day31.status).toBe(400);
    expect(day31.body.detail).toContain('"last"');
    const sendWithoutFinalize = await call('POST', '/recurring-invoices/', {
      template: template(7, { email: { to: 'ap@example.com' } }),
      schedule,
      auto_send_email: true,
    });
    expect(sendWithoutFinalize.status).toBe(400);
    const noPositions = await call('POST', '/recurring-invoices/', { template: template(7, { positions: [] }), schedule });
    expect(noPositions.status).toBe(400);
    const tooMany = await call('POST', '/recurring-invoices/', {
      template: template(7, { positions: Array.from({ length: 101 }, () => template().positions[0]) }),
      schedule,
    });
    expect(tooMany.status).toBe(400);
    const created = await call('POST', '/recurring-invoices/', { template: template(), schedule });
    expect((await call('PUT', `/recurring-invoices/${created.body.id}`, { auto_send_email: true })).status).toBe(400);
    expect((await call('PUT', `/recurring-invoices/${created.body.id}`, { status: 'ended' })).status).toBe(400);
    expect((await call('GET', '/recurring-invoices/abc')).status).toBe(400);
  });

  it("answers 404 for another company's schedule, and its scheduler issues only into the owner's company", async () => {
    const owner = api('cmp_owner');
    const created = await owner('POST', '/recurring-invoices/', {
      template: template(),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-11-01' },
    });
    const intruder = api('cmp_intruder');
    for (const [method, path, body] of [
      ['GET', `/recurring-invoices/${created.body.id}`],
      ['PUT', `/recurring-invoices/${created.body.id}`, { status: 'paused' }],
      ['DELETE', `/recurring-invoices/${created.body.id}`],
      ['GET', `/recurring-invoices/${created.body.id}/runs`],
    ] as const) {
      const answer = await intruder(method, path, body);
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
    }
    expect((await intruder('GET', '/recurring-invoices/')).body.total).toBe(0);
    await tick(main.svc);
    expect(fake.invoicesOf('cmp_owner')).toHaveLength(1);
    expect(fake.invoicesOf('cmp_intruder')).toHaveLength(0);
    expect((await owner('GET', `/recurring-invoices/${created.body.id}`)).body.status).toBe('active');
  });

  it('catches up 3 missed months oldest first, each once, with the service period advanced, then ends', async () => {
    const call = api('cmp_catchup');
    const created = await call('POST', '/recurring-invoices/', {
      template: template(),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-09-01', end_date: '2026-11-20' },
    });
    expect(created.body.next_run_date).toBe('2026-09-01');
    await tick(main.svc);
    await tick(main.svc);
    const invoices = fake.invoicesOf('cmp_catchup');
    expect(invoices.map((i) => [i.benefit_period_start, i.benefit_period_end])).toEqual([
      ['2026-09-01', '2026-09-30'],
      ['2026-10-01', '2026-10-31'],
      ['2026-11-01', '2026-11-20'],
    ]);
    expect(invoices.every((i) => i.positions.length === 2 && i.status === 'DRAFT')).toBe(true);
    expect(invoices[0].meta).toEqual({ contract: 'L-42', recurring_run: `${created.body.id}:2026-09-01` });
    const after = (await call('GET', `/recurring-invoices/${created.body.id}`)).body;
    expect(after).toMatchObject({
      status: 'ended',
      next_run_date: null,
      last_run: { date: '2026-11-01', period_start: '2026-11-01', period_end: '2026-11-20', invoice_id: 3, outcome: 'draft_created' },
    });
    const runs = (await call('GET', `/recurring-invoices/${created.body.id}/runs`)).body;
    expect(runs.runs.map((r: { date: string; invoice_id: number }) => [r.date, r.invoice_id])).toEqual([
      ['2026-11-01', 3],
      ['2026-10-01', 2],
      ['2026-09-01', 1],
    ]);
  });

  it('issues exactly one invoice per period with two replicas ticking at the same time', async () => {
    const second = await replica();
    const call = api('cmp_race');
    for (let i = 0; i < 3; i++)
      await call('POST', '/recurring-invoices/', {
        template: template(10 + i),
        schedule: { interval: 'monthly', day_of_month: 'last', start_date: '2026-07-01' },
        auto_finalize: true,
      });
    fake.state.delayMs = 15;
    try {
      for (let round = 0; round < 3; round++) await Promise.all([tick(main.svc), tick(second.svc), tick(main.svc), tick(second.svc)]);
    } finally {
      fake.state.delayMs = 0;
    }
    const invoices = fake.invoicesOf('cmp_race');
    // the clock is at 15 November: July to October for each of the three schedules
    const periods = invoices.map((i) => `${i.customer_id}:${i.benefit_period_start}`);
    expect(new Set(periods).size).toBe(periods.length);
    expect(periods.sort()).toEqual(
      [10, 11, 12].flatMap((c) => ['2026-07-31', '2026-08-31', '2026-09-30', '2026-10-31'].map((d) => `${c}:${d}`)).sort(),
    );
    expect(invoices.every((i) => i.positions.length === 2 && i.status === 'OPEN')).toBe(true);
    // not even a second draft was attempted: the losing replica stopped at the claim
    expect(fake.calls.filter((c) => c.companyId === 'cmp_race' && c.method === 'POST' && c.path === '/invoice/')).toHaveLength(12);
    const list = (await call('GET', '/recurring-invoices/')).body.recurring_invoices;
    expect(list.map((s: { next_run_date: string }) => s.next_run_date)).toEqual(['2026-11-30', '2026-11-30', '2026-11-30']);
    expect(list.every((s: { last_run: { outcome: string } }) => s.last_run.outcome === 'finalized')).toBe(true);
    // gone for the tests after it (each replica's relay reads the one outbox: what it publishes may come twice)
    await second.svc.stop();
  });

  it('goes past schedules that stay due (held by another replica) to the ones behind them', async () => {
    const call = api('cmp_pages');
    for (let i = 0; i < 3; i++)
      await call('POST', '/recurring-invoices/', {
        template: template(50 + i),
        schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-11-01' },
      });
    // another replica holds the first schedule's run, for longer than this test
    const held = await main.svc.deps.runs.claim(
      { companyId: asCompanyId('cmp_pages'), scheduleId: 1, index: 0, period: '2026-11-01', periodEnd: '2026-11-30' },
      'other-replica',
      now,
      new Date(now.getTime() + 3_600_000),
    );
    expect(held?.resumed).toBe(false);
    // pages of one schedule: the held one comes first and stays due
    await runDueSchedules(main.svc.deps, { owner: 'paging-test', concurrency: 1, batch: 1 });
    expect(fake.invoicesOf('cmp_pages').map((i) => i.customer_id)).toEqual([51, 52]);
    expect((await call('GET', '/recurring-invoices/1')).body.next_run_date).toBe('2026-11-01');
  });

  it('resumes a run whose replica died after creating the draft, without a second invoice', async () => {
    const doomed = await replica();
    const call = api('cmp_crash');
    const created = await call('POST', '/recurring-invoices/', {
      template: template(21),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-11-01' },
    });
    // the draft is created, but its answer never arrives: the replica dies before recording the invoice id
    fake.state.hold = (c) => c.companyId === 'cmp_crash' && c.method === 'POST' && c.path === '/invoice/';
    const dying = doomed.svc.scheduler.tick();
    await waitFor(async () => fake.invoicesOf('cmp_crash').length === 1, { what: 'the draft' });
    await doomed.svc.stop();
    await dying;
    fake.state.hold = undefined;

    // another replica: the run is held until its lease expires
    const survivor = await replica();
    await tick(survivor.svc);
    expect((await call('GET', `/recurring-invoices/${created.body.id}/runs`)).body.runs[0]).toMatchObject({
      outcome: 'running',
      invoice_id: null,
    });
    now = new Date(now.getTime() + 61_000);
    await tick(survivor.svc);
    const invoices = fake.invoicesOf('cmp_crash');
    expect(invoices).toHaveLength(1);
    expect(invoices[0].positions).toHaveLength(2);
    expect((await call('GET', `/recurring-invoices/${created.body.id}/runs`)).body.runs).toEqual([
      expect.objectContaining({ date: '2026-11-01', invoice_id: 1, outcome: 'draft_created' }),
    ]);
    await survivor.svc.stop();
  });

  it('resumes a run that died between two positions, adding only the missing one', async () => {
    const doomed = await replica();
    const call = api('cmp_crash2');
    await call('POST', '/recurring-invoices/', {
      template: template(22),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-11-01' },
    });
    let positions = 0;
    fake.state.hold = (c) => c.companyId === 'cmp_crash2' && c.path.endsWith('/positions') && ++positions === 1;
    const dying = doomed.svc.scheduler.tick();
    await waitFor(async () => fake.invoicesOf('cmp_crash2')[0]?.positions.length === 1, { what: 'the first position' });
    await doomed.svc.stop();
    await dying;
    fake.state.hold = undefined;
    now = new Date(now.getTime() + 61_000);
    await tick(main.svc);
    expect(fake.invoicesOf('cmp_crash2')).toHaveLength(1);
    expect(fake.invoicesOf('cmp_crash2')[0].positions).toHaveLength(2);
  });

  it('pauses on a quota refusal (402) and finalizes the same draft once resumed; then e-mails it', async () => {
    const call = api('cmp_quota');
    fake.quota.set('cmp_quota', 0);
    const created = await call('POST', '/recurring-invoices/', {
      template: template(31, { email: { to: 'ap@customer.example', subject: 'Your invoice' } }),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-10-01' },
      auto_finalize: true,
      auto_send_email: true,
    });
    const id = created.body.id;
    await tick(main.svc);
    const paused = (await call('GET', `/recurring-invoices/${id}`)).body;
    expect(paused).toMatchObject({
      status: 'paused',
      paused_reason: 'quota_exceeded',
      next_run_date: '2026-10-01',
      last_run: { date: '2026-10-01', invoice_id: 1, outcome: 'quota_exceeded' },
    });
    expect(paused.last_run.error).toContain('402 INVOICE_LIMIT_REACHED');
    await tick(main.svc);
    expect(fake.invoicesOf('cmp_quota')).toHaveLength(1);

    fake.quota.set('cmp_quota', 10);
    expect((await call('PUT', `/recurring-invoices/${id}`, { status: 'active' })).body).toMatchObject({
      status: 'active',
      paused_reason: null,
    });
    await tick(main.svc);
    const invoices = fake.invoicesOf('cmp_quota');
    expect(invoices.map((i) => [i.benefit_period_start, i.status, i.emails.length])).toEqual([
      ['2026-10-01', 'SENT', 1],
      ['2026-11-01', 'SENT', 1],
    ]);
    expect(invoices[0].emails[0].to).toBe('ap@customer.example');
    expect((await call('GET', `/recurring-invoices/${id}`)).body).toMatchObject({
      status: 'active',
      next_run_date: '2026-12-01',
      last_run: { outcome: 'sent', invoice_id: 2 },
    });
    // each end is announced once (webhooks: recurring_invoice.run_finished): the pause, then both periods sent
    const mine = await waitFor(() => {
      const got = announced.filter((a) => a.companyId === 'cmp_quota');
      return got.length >= 3 && got;
    });
    expect(mine.map((a) => [a.data.periodStart, a.data.outcome, a.data.pausedReason, a.data.invoiceId])).toEqual([
      ['2026-10-01', 'quota_exceeded', 'quota_exceeded', 1],
      ['2026-10-01', 'sent', undefined, 1],
      ['2026-11-01', 'sent', undefined, 2],
    ]);
    expect(new Set(mine.map((a) => a.id)).size).toBe(3);
  });

  it('pauses a schedule whose template the invoice API refuses (its customer deleted since), and says why', async () => {
    const call = api('cmp_reject');
    const created = await call('POST', '/recurring-invoices/', {
      template: template(43),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-11-01' },
    });
    expect(created.status).toBe(201);
    fake.deletedCustomers.add('cmp_reject:43');
    await tick(main.svc);
    expect((await call('GET', `/recurring-invoices/${created.body.id}`)).body).toMatchObject({
      status: 'paused',
      paused_reason: 'invoice_rejected',
      last_run: { outcome: 'failed', invoice_id: null },
    });
    expect(fake.invoicesOf('cmp_reject')).toHaveLength(0);
    // fixed template: the same run goes on
    await call('PUT', `/recurring-invoices/${created.body.id}`, { template: template(41), status: 'active' });
    await tick(main.svc);
    expect(fake.invoicesOf('cmp_reject').map((i) => i.customer_id)).toEqual([41]);
  });

  it('refuses a start_date more than a year back or ten years ahead (400, naming the field and the bound)', async () => {
    const call = api('cmp_old_start');
    // the clock is at 2026-11-15: the earliest start is 2025-11-15, the latest 2036-11-15
    for (const start_date of ['1990-01-01', '0001-01-01', '2025-11-14']) {
      const refused = await call('POST', '/recurring-invoices/', {
        template: template(),
        schedule: { interval: 'monthly', day_of_month: 1, start_date },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_ERROR');
      expect(refused.body.detail).toContain('start_date');
      expect(refused.body.detail).toContain('2025-11-15');
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'schedule.start_date' })]);
    }
    const far = await call('POST', '/recurring-invoices/', {
      template: template(),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '9999-01-01' },
    });
    expect(far.status).toBe(400);
    expect(far.body.detail).toContain('2036-11-15');
    const edge = await call('POST', '/recurring-invoices/', {
      template: template(),
      schedule: { interval: 'yearly', day_of_month: 1, start_date: '2025-11-15' },
    });
    expect(edge.status).toBe(201);
    // moving an existing schedule's start far back is refused too; keeping its start as it was is not
    const moved = await call('PUT', `/recurring-invoices/${edge.body.id}`, {
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '1990-01-01' },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.detail).toContain('2025-11-15');
    const kept = await call('PUT', `/recurring-invoices/${edge.body.id}`, {
      status: 'paused',
      schedule: { interval: 'yearly', day_of_month: 1, start_date: '2025-11-15', end_date: '2030-12-31' },
    });
    expect(kept.status).toBe(200);
    expect(fake.invoicesOf('cmp_old_start')).toHaveLength(0);
  });

  it('catches up at most 3 periods per tick, and the rest at the next ticks, each period once', async () => {
    const call = api('cmp_behind');
    const created = await call('POST', '/recurring-invoices/', {
      template: template(),
      schedule: { interval: 'monthly', day_of_month: 1, start_date: '2025-12-01' },
    });
    expect(created.body.next_run_date).toBe('2025-12-01');
    const expected = Array.from({ length: 12 }, (_, i) => `${i < 1 ? 2025 : 2026}-${String(((11 + i) % 12) + 1).padStart(2, '0')}-01`);
    const issuedAfter: number[] = [];
    for (let t = 0; t < 6; t++) {
      await main.svc.scheduler.tick();
      issuedAfter.push(fake.invoicesOf('cmp_behind').length);
    }
    expect(issuedAfter).toEqual([3, 6, 9, 12, 12, 12]);
    const periods = fake.invoicesOf('cmp_behind').map((i) => i.benefit_period_start);
    expect(periods).toEqual(expected);
    expect(fake.calls.filter((c) => c.companyId === 'cmp_behind' && c.method === 'POST' && c.path === '/invoice/')).toHaveLength(12);
    expect((await call('GET', `/recurring-invoices/${created.body.id}`)).body).toMatchObject({
      status: 'active',
      next_run_date: '2026-12-01',
    });
  });

  it("takes its calls from the company's rate-limit window in Redis, the one the gateway keeps", async () => {
    const limited = await replica({ RATE_LIMIT_PER_SECOND: '4' });
    // the gateway's limiter as the gateway keys it (its client's prefix is REDIS_PREFIX + gw:)
    const gatewayRedis = connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', `${prefix}:${GATEWAY_REDIS_NAMESPACE}`);
    const gatewayLimit = createCompanyRateLimit(gatewayRedis, 4);
    try {
      await new Promise((r) => (gatewayRedis.status === 'ready' ? r(undefined) : gatewayRedis.once('ready', r)));
      const call = api('cmp_rl');
      // 3 periods due, 3 calls each (the draft, two positions)
      await call('POST', '/recurring-invoices/', {
        template: template(),
        schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-09-01' },
      });
      // the company's integrator has used up this second at the gateway
      const started = Date.now();
      for (let i = 0; i < 4; i++) expect((await gatewayLimit.take('cmp_rl')).admitted).toBe(true);
      await tick(limited.svc);
      const took = Date.now() - started;
      expect(fake.invoicesOf('cmp_rl')).toHaveLength(3);
      // the runs' calls (the template check when the schedule was saved is part of that request, counted by the gateway)
      expect(fake.calls.filter((c) => c.companyId === 'cmp_rl' && c.path !== '/invoice/validate')).toHaveLength(9);
      // 4 + 9 calls at 4 per sliding second: the last can go only 3 s after the first (1 s if the scheduler's own
      // calls did not count, at once if it did not respect the gateway's)
      expect(took).toBeGreaterThanOrEqual(2900);
    } finally {
      gatewayLimit.stop();
      gatewayRedis.disconnect();
      await limited.svc.stop();
    }
  });

  describe("the template: one shape, the invoice's, checked like an invoice when saved", () => {
    const schemas = openApiSchemas();
    const monthly = { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01' };
    /** Errors of an answer against the schema the reference publishes for it (empty: valid). */
    const asDocumented = (value: unknown) => schemas.validate('#/components/schemas/RecurringInvoice', value);

    it('answers amounts as JSON numbers in create, get, list and update alike, as the published schema says', async () => {
      const call = api('cmp_numbers');
      const created = await call('POST', '/recurring-invoices/', {
        template: template(7, {
          positions: [
            { title: 'Hosting', quantity: '2', unit_id: 'MON', unit_net_amount: '249', tax_rate: '0.19' },
            {
              title: 'Support',
              quantity: 1.5,
              unit_id: 'HUR',
              unit_net_amount: 99.9,
              tax_rate: 0.19,
              discount_type: 'PERCENTAGE',
              discount_value: '10',
            },
          ],
        }),
        schedule: monthly,
      });
      expect(created.status).toBe(201);
      const positions = [
        { title: 'Hosting', quantity: 2, unit_id: 'MON', unit_net_amount: 249, tax_rate: 0.19 },
        {
          title: 'Support',
          quantity: 1.5,
          unit_id: 'HUR',
          unit_net_amount: 99.9,
          tax_rate: 0.19,
          discount_type: 'PERCENTAGE',
          discount_value: 10,
        },
      ];
      expect(created.body.template.positions).toEqual(positions);
      const got = (await call('GET', `/recurring-invoices/${created.body.id}`)).body;
      expect(got).toEqual(created.body);
      expect(asDocumented(got)).toEqual([]);
      const listed = (await call('GET', '/recurring-invoices/')).body.recurring_invoices;
      expect(listed).toEqual([got]);
      const changed = (await call('PUT', `/recurring-invoices/${created.body.id}`, { name: 'Hosting' })).body;
      expect(changed.template).toEqual(got.template);
      // what GET answers can be sent back as it is
      const sentBack = await call('PUT', `/recurring-invoices/${created.body.id}`, { template: got.template });
      expect(sentBack.status).toBe(200);
      expect(sentBack.body.template.positions).toEqual(positions);
      // the published schema refuses what the issue saw (amounts as strings, a rate in percent)
      const asStrings = { ...got, template: { ...got.template, positions: [{ ...positions[0], quantity: '2' }] } };
      expect(asDocumented(asStrings)).not.toEqual([]);
      expect(asDocumented({ ...got, template: { ...got.template, positions: [{ ...positions[0], tax_rate: 19 }] } })).not.toEqual([]);
    });

    it('reads schedules stored with decimal text (every one saved before) as numbers, on read, without rewriting them', async () => {
      const call = api('cmp_legacy');
      const stored = {
        customer_id: 7,
        invoice_format: 'ZUGFERD',
        positions: [
          { title: 'Hosting', quantity: '2', unit_id: 'MON', unit_net_amount: '249', tax_rate: '0.19' },
          {
            title: 'Setup',
            quantity: '1',
            unit_id: 'C62',
            unit_net_amount: '1200.50',
            tax_rate: '0.07',
            discount_type: 'FIXED_AMOUNT',
            discount_value: '100.00',
          },
          { title: 'Licence', quantity: 3, unit_id: 'C62', unit_net_amount: 10, single_net_amount: '30' },
        ],
        email: { to: 'ap@customer.example', attach_pdf: true },
      };
      const at = new Date('2026-11-01T10:00:00Z');
      await main.svc.deps.schedules.insert({
        _id: 'cmp_legacy:1',
        companyId: asCompanyId('cmp_legacy'),
        id: 1,
        name: 'Saved before',
        templateJson: JSON.stringify(stored),
        schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01' },
        autoFinalize: false,
        autoSendEmail: false,
        status: 'active',
        pausedReason: null,
        nextIndex: 0,
        nextRunDate: '2026-12-01',
        billedUntil: null,
        lastRun: null,
        version: 0,
        createdAt: at,
        updatedAt: at,
      });
      const got = (await call('GET', '/recurring-invoices/1')).body;
      expect(got.template.positions).toEqual([
        { title: 'Hosting', quantity: 2, unit_id: 'MON', unit_net_amount: 249, tax_rate: 0.19 },
        {
          title: 'Setup',
          quantity: 1,
          unit_id: 'C62',
          unit_net_amount: 1200.5,
          tax_rate: 0.07,
          discount_type: 'FIXED_AMOUNT',
          discount_value: 100,
        },
        { title: 'Licence', quantity: 3, unit_id: 'C62', unit_net_amount: 10, single_net_amount: 30 },
      ]);
      expect(asDocumented(got)).toEqual([]);
      expect((await call('GET', '/recurring-invoices/')).body.recurring_invoices).toEqual([got]);
      // converted on read: the stored text stays as it was
      expect(JSON.parse((await main.svc.deps.schedules.get(asCompanyId('cmp_legacy'), 1))!.templateJson)).toEqual(stored);
    });

    it('publishes valid, realistic examples: each validates against its own schema, and the create example is accepted as it is', async () => {
      const invalid: string[] = [];
      for (const path of ['/recurring-invoices/', '/recurring-invoices/{id}', '/recurring-invoices/{id}/runs']) {
        for (const [method, op] of Object.entries<any>(schemas.doc.paths[path])) {
          if (method === 'parameters') continue;
          const request = op.requestBody?.content?.['application/json'];
          if (request?.example !== undefined)
            for (const e of schemas.validate(
              schemas.pointer(path, method, 'requestBody', 'content', 'application/json', 'schema'),
              request.example,
            ))
              invalid.push(`${method} ${path} request: ${e}`);
          for (const [status, answer] of Object.entries<any>(op.responses))
            for (const [type, media] of Object.entries<any>(answer.content ?? {}))
              if (media.example !== undefined)
                for (const e of schemas.validate(
                  schemas.pointer(path, method, 'responses', status, 'content', type, 'schema'),
                  media.example,
                ))
                  invalid.push(`${method} ${path} ${status}: ${e}`);
        }
      }
      for (const name of [
        'RecurringTemplate',
        'RecurringTemplateView',
        'RecurringTemplatePosition',
        'RecurringInvoice',
        'RecurringInvoiceCreate',
        'PositionCreateInput',
      ]) {
        const component = schemas.doc.components.schemas[name];
        expect([name, component.example !== undefined]).toEqual([name, true]);
        for (const e of schemas.validate(`#/components/schemas/${name}`, component.example)) invalid.push(`${name}: ${e}`);
      }
      expect(invalid).toEqual([]);
      // the realistic values: rates as fractions, an e-invoice format the API issues
      const example = schemas.doc.paths['/recurring-invoices/'].post.requestBody.content['application/json'].example;
      expect(example.template.invoice_format).toBe('XRECHNUNG');
      expect(example.template.positions.map((p: { tax_rate: number }) => p.tax_rate)).toEqual([0.19, 0.19]);
      const created = await api('cmp_example')('POST', '/recurring-invoices/', example);
      expect(created.status).toBe(201);
      expect(created.body.template).toEqual({ ...example.template, email: { ...example.template.email } });
      expect(asDocumented(created.body)).toEqual([]);
      const documented = schemas.doc.paths['/recurring-invoices/'].post.responses['201'].content['application/json'].example;
      expect(Object.keys(created.body).sort()).toEqual(Object.keys(documented).sort());
      expect(created.body.template).toEqual(documented.template);
    });

    it('refuses at creation a template finalization would refuse: 422 naming template.buyer_reference, nothing saved', async () => {
      const call = api('cmp_refuse');
      const { buyer_reference: _none, ...withoutReference } = template(60);
      const refused = await call('POST', '/recurring-invoices/', { template: withoutReference, schedule: monthly, auto_finalize: true });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('RECURRING_TEMPLATE_NOT_VALID');
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ path: 'template.buyer_reference', rule: 'BR-DE-15', message: expect.stringContaining('Leitweg-ID') }),
      ]);
      expect(refused.body.detail).toContain('buyer_reference');
      expect(
        schemas.validate(
          schemas.pointer('/recurring-invoices/', 'post', 'responses', '422', 'content', 'application/problem+json', 'schema'),
          refused.body,
        ),
      ).toEqual([]);
      const unknown = await call('POST', '/recurring-invoices/', { template: template(404), schedule: monthly });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors).toEqual([expect.objectContaining({ path: 'template.customer_id', rule: 'CUSTOMER_EXISTS' })]);
      expect((await call('GET', '/recurring-invoices/')).body.total).toBe(0);
      // the check is the invoice's: the draft of the first run, with the customer's Leitweg-ID as creation takes it
      const checks = fake.calls.filter((c) => c.companyId === 'cmp_refuse' && c.path === '/invoice/validate');
      expect(checks[0].body).toMatchObject({
        customer_id: 60,
        invoice_format: 'XRECHNUNG',
        benefit_period_start: '2026-12-01',
        benefit_period_end: '2026-12-31',
      });
      fake.buyerReferences.set('cmp_refuse:60', '04011000-12345-03');
      const accepted = await call('POST', '/recurring-invoices/', { template: withoutReference, schedule: monthly, auto_finalize: true });
      expect(accepted.status).toBe(201);
      // no id was used up by the refusals
      expect(accepted.body.id).toBe(1);
      expect(fake.invoicesOf('cmp_refuse')).toHaveLength(0);
    });

    it('refuses a changed template or a resume finalization would refuse (422 naming the field); pausing is never refused', async () => {
      const call = api('cmp_refuse_put');
      const created = await call('POST', '/recurring-invoices/', { template: template(61), schedule: monthly });
      expect(created.status).toBe(201);
      const { buyer_reference: _none, ...withoutReference } = template(61);
      const changed = await call('PUT', `/recurring-invoices/${created.body.id}`, { template: withoutReference });
      expect(changed.status).toBe(422);
      expect(changed.body.errors).toEqual([expect.objectContaining({ path: 'template.buyer_reference', rule: 'BR-DE-15' })]);
      expect((await call('GET', `/recurring-invoices/${created.body.id}`)).body.template.buyer_reference).toBe('04011000-12345-03');
      expect((await call('PUT', `/recurring-invoices/${created.body.id}`, { status: 'paused' })).status).toBe(200);
      // the customer is deleted meanwhile: resuming is refused, naming it
      fake.deletedCustomers.add('cmp_refuse_put:61');
      const resumed = await call('PUT', `/recurring-invoices/${created.body.id}`, { status: 'active' });
      expect(resumed.status).toBe(422);
      expect(resumed.body.errors).toEqual([expect.objectContaining({ path: 'template.customer_id', rule: 'CUSTOMER_EXISTS' })]);
      expect((await call('PUT', `/recurring-invoices/${created.body.id}`, { name: 'still paused' })).status).toBe(200);
      const fixed = await call('PUT', `/recurring-invoices/${created.body.id}`, { template: template(62), status: 'active' });
      expect(fixed.status).toBe(200);
      expect(fixed.body).toMatchObject({ status: 'active', paused_reason: null, template: { customer_id: 62 } });
    });

    it('answers 503 and saves nothing when the invoice service cannot check the template', async () => {
      const call = api('cmp_down');
      fake.state.validateDown = true;
      try {
        const refused = await call('POST', '/recurring-invoices/', { template: template(), schedule: monthly });
        expect(refused.status).toBe(503);
        expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
      } finally {
        fake.state.validateDown = false;
      }
      // invoice-service not reachable at all
      const cut = await replica({ INVOICE_URL: 'http://127.0.0.1:9', RECURRING_HTTP_TIMEOUT_MS: '1000' });
      const unreachable = await serviceCaller(() => cut.url, 'cmp_down')('POST', '/recurring-invoices/', {
        template: template(),
        schedule: monthly,
      });
      expect(unreachable.status).toBe(503);
      expect(unreachable.body.code).toBe('SERVICE_UNAVAILABLE');
      await cut.svc.stop();
      expect((await call('GET', '/recurring-invoices/')).body.total).toBe(0);
      const created = await call('POST', '/recurring-invoices/', { template: template(), schedule: monthly });
      fake.state.validateDown = true;
      try {
        const change = await call('PUT', `/recurring-invoices/${created.body.id}`, { template: template(8) });
        expect(change.status).toBe(503);
      } finally {
        fake.state.validateDown = false;
      }
      expect((await call('GET', `/recurring-invoices/${created.body.id}`)).body.template.customer_id).toBe(7);
    });

    it('pauses on a refused finalization with the reason, leaves no draft per period, and finalizes the same draft once fixed', async () => {
      const call = api('cmp_ff');
      // the customer's Leitweg-ID is there when the schedule is saved, gone when the run creates its draft
      fake.buyerReferences.set('cmp_ff:70', '04011000-12345-03');
      const { buyer_reference: _none, ...withoutReference } = template(70);
      const created = await call('POST', '/recurring-invoices/', {
        template: withoutReference,
        schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-10-01' },
        auto_finalize: true,
      });
      expect(created.status).toBe(201);
      fake.buyerReferences.delete('cmp_ff:70');
      await tick(main.svc);
      const paused = (await call('GET', `/recurring-invoices/${created.body.id}`)).body;
      expect(paused).toMatchObject({
        status: 'paused',
        paused_reason: 'finalize_failed',
        next_run_date: '2026-10-01',
        last_run: { date: '2026-10-01', invoice_id: 1, outcome: 'finalize_failed' },
      });
      expect(paused.last_run.error).toContain('422 INVOICE_NOT_VALID');
      expect(paused.last_run.error).toContain('buyerReference');
      expect(asDocumented(paused)).toEqual([]);
      // later ticks (the October and November periods are due) leave no further draft
      await tick(main.svc);
      await tick(main.svc);
      expect(fake.invoicesOf('cmp_ff').map((i) => [i.benefit_period_start, i.status])).toEqual([['2026-10-01', 'DRAFT']]);
      const announced70 = await waitFor(() => announced.find((a) => a.companyId === 'cmp_ff'));
      expect(announced70.data).toMatchObject({ outcome: 'finalize_failed', pausedReason: 'finalize_failed', invoiceId: 1 });

      // resuming unfixed is refused (the check of the next run's draft); the template fixed, it resumes
      expect((await call('PUT', `/recurring-invoices/${created.body.id}`, { status: 'active' })).status).toBe(422);
      const resumed = await call('PUT', `/recurring-invoices/${created.body.id}`, { template: template(70), status: 'active' });
      expect(resumed.status).toBe(200);
      await tick(main.svc);
      const invoices = fake.invoicesOf('cmp_ff');
      // the paused run's own draft, brought up to date and finalized; then November's: one draft per period
      expect(invoices.map((i) => [i.id, i.benefit_period_start, i.status, i.buyer_reference])).toEqual([
        [1, '2026-10-01', 'OPEN', '04011000-12345-03'],
        [2, '2026-11-01', 'OPEN', '04011000-12345-03'],
      ]);
      expect(fake.calls.filter((c) => c.companyId === 'cmp_ff' && c.method === 'POST' && c.path === '/invoice/')).toHaveLength(2);
      const runs = (await call('GET', `/recurring-invoices/${created.body.id}/runs`)).body.runs;
      expect(runs.map((r: { date: string; invoice_id: number; outcome: string }) => [r.date, r.invoice_id, r.outcome])).toEqual([
        ['2026-11-01', 2, 'finalized'],
        ['2026-10-01', 1, 'finalized'],
      ]);
      expect((await call('GET', `/recurring-invoices/${created.body.id}`)).body).toMatchObject({ status: 'active', paused_reason: null });
    });

    it('pauses when the finalization job fails, and a resume starts a new job on the same draft', async () => {
      const call = api('cmp_jobfail');
      fake.state.failJobsOf.add('cmp_jobfail');
      const created = await call('POST', '/recurring-invoices/', {
        template: template(71),
        schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-11-01' },
        auto_finalize: true,
      });
      await tick(main.svc);
      const paused = (await call('GET', `/recurring-invoices/${created.body.id}`)).body;
      expect(paused).toMatchObject({
        status: 'paused',
        paused_reason: 'finalize_failed',
        last_run: { outcome: 'finalize_failed', invoice_id: 1 },
      });
      expect(paused.last_run.error).toContain('rendering failed');
      // retried by another tick and another replica: still paused, still one draft
      await tick(main.svc);
      await runDueSchedules(main.svc.deps, { owner: 'retry-test', concurrency: 1 });
      expect(fake.invoicesOf('cmp_jobfail')).toHaveLength(1);

      fake.state.failJobsOf.delete('cmp_jobfail');
      expect((await call('PUT', `/recurring-invoices/${created.body.id}`, { status: 'active' })).status).toBe(200);
      await tick(main.svc);
      expect(fake.invoicesOf('cmp_jobfail').map((i) => [i.id, i.status])).toEqual([[1, 'OPEN']]);
      const jobs = fake.calls.filter((c) => c.companyId === 'cmp_jobfail' && c.method === 'POST' && c.path === '/invoice/1/job');
      expect(jobs).toHaveLength(2);
      expect((await call('GET', `/recurring-invoices/${created.body.id}`)).body).toMatchObject({
        status: 'active',
        next_run_date: '2026-12-01',
        last_run: { outcome: 'finalized', invoice_id: 1, error: null },
      });
    });
  });
});
