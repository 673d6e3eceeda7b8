import { RecurringInvoice, RecurringRun } from '@inv/contracts';
import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { registerRecurringPages } from './recurring.pages';
import { customer, paused, run, schedule } from './fixtures';

const api: FakeApi = (c) => {
  if (c.method === 'GET' && c.path.startsWith('/recurring-invoices/?'))
    return { status: 200, body: { recurring_invoices: [schedule, paused], total: 30, page: 1, limit: 25 } };
  if (c.method === 'GET' && c.path === '/recurring-invoices/1') return { status: 200, body: schedule };
  if (c.method === 'GET' && c.path === '/recurring-invoices/2') return { status: 200, body: paused };
  if (c.method === 'GET' && /^\/recurring-invoices\/[12]\/runs\?/.test(c.path))
    return {
      status: 200,
      body: {
        runs: [run, { ...run, id: '1:2027-01-01', invoice_id: null, outcome: 'failed', error: 'refused' }],
        total: 2,
        page: 1,
        limit: 25,
      },
    };
  if (c.path === '/customer/42') return { status: 200, body: customer };
  if (c.method === 'PUT' && c.path === '/recurring-invoices/1')
    return { status: 200, body: { ...schedule, ...(c.body as object), paused_reason: 'user' } };
  if (c.method === 'PUT' && c.path === '/recurring-invoices/2')
    return { status: 200, body: { ...paused, status: 'active', paused_reason: null } };
  return undefined;
};
const harness = (o: { role?: string; lang?: 'de' | 'en'; api?: FakeApi } = {}) =>
  pageHarness({ register: registerRecurringPages, api: o.api ?? api, role: o.role, lang: o.lang });

describe('recurring invoice pages', () => {
  it('the fixtures are shaped as the API answers', () => {
    expect(RecurringInvoice.safeParse(schedule).error).toBeUndefined();
    expect(RecurringInvoice.safeParse(paused).error).toBeUndefined();
    expect(RecurringRun.safeParse(run).error).toBeUndefined();
  });

  it('lists the schedules in German with a whitelisted status filter and the API paging', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const page = await h.get('/app/recurring?status=paused&page=2');
      expect(page.status).toBe(200);
      expect(h.calls[0]!.path).toBe('/recurring-invoices/?status=paused&page=2&limit=25');
      expect(page.html).toContain('href="/app/recurring/1"');
      expect(page.html).toContain('Office rent Musterstraße 1');
      expect(page.html).toContain('Serienrechnung 2');
      expect(page.html).toContain('Bezirksamt Mitte von Berlin');
      expect(page.html).toContain('monatlich, am 1. des Monats');
      expect(page.html).toContain('vierteljährlich, am Monatsletzten');
      expect(page.html).toContain('pausiert: Festschreiben fehlgeschlagen');
      expect(page.html).toContain('Seite 1 von 2');
      await h.get('/app/recurring?status=paused%26limit%3D1000&page=-1');
      expect(h.calls.at(-2)!.path).toBe('/recurring-invoices/?page=1&limit=25');
    } finally {
      await h.close();
    }
  });

  it('shows a schedule with its template and runs linking to their invoices, and offers pausing to an owner', async () => {
    const h = await harness();
    try {
      const page = await h.get('/app/recurring/1');
      expect(page.status).toBe(200);
      expect(page.html).toContain('<h1>Office rent Musterstraße 1</h1>');
      expect(page.html).toContain('Office rent');
      expect(page.html).toContain('€1,200.00');
      expect(page.html).toContain('19%');
      expect(page.html).toContain('1.5');
      expect(page.html).toContain('e-mailed to accounts-payable@customer.example');
      expect(page.html).toContain('href="/app/invoices/311"');
      expect(page.html).toContain('failed');
      expect(page.html).toContain('action="/app/recurring/1/pause"');
      expect(page.html).not.toContain('/resume"');
    } finally {
      await h.close();
    }
  });

  it('shows why a schedule is paused and offers resuming', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const page = await h.get('/app/recurring/2');
      expect(page.html).toContain('Fehler beim letzten Lauf');
      expect(page.html).toContain('XRechnung needs the buyer reference');
      expect(page.html).toContain('action="/app/recurring/2/resume"');
      expect(page.html).toContain('verpasste Zeiträume nachgeholt');
    } finally {
      await h.close();
    }
  });

  it('pauses and resumes with PUT status', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const paused1 = await h.post('/app/recurring/1/pause', {});
      expect(paused1.status).toBe(303);
      expect(paused1.location).toBe('/app/recurring/1');
      expect(h.calls.at(-1)).toMatchObject({ method: 'PUT', path: '/recurring-invoices/1', body: { status: 'paused' } });
      expect(h.takeFlash()?.text).toBe('Die Serienrechnung ist pausiert; es werden keine Rechnungen erstellt.');
      await h.post('/app/recurring/2/resume', {});
      expect(h.calls.at(-1)).toMatchObject({ method: 'PUT', path: '/recurring-invoices/2', body: { status: 'active' } });
      expect(h.takeFlash()?.text).toBe('Die Serienrechnung läuft wieder.');
    } finally {
      await h.close();
    }
  });

  it('shows the API’s refusal of a resume translated', async () => {
    const h = await harness({
      lang: 'de',
      api: (c) =>
        c.method === 'PUT' ? { status: 409, body: { code: 'RECURRING_ENDED', detail: 'recurring invoice 2 has ended' } } : api(c),
    });
    try {
      await h.post('/app/recurring/2/resume', {});
      expect(h.takeFlash()).toEqual({
        kind: 'error',
        text: 'Die Serienrechnung ist beendet (ihr Enddatum ist vorbei) und kann nicht fortgesetzt werden.',
      });
    } finally {
      await h.close();
    }
  });

  it('lets a member pause (invoices:write)', async () => {
    const h = await harness({ role: 'member' });
    try {
      expect((await h.get('/app/recurring/1')).html).toContain('action="/app/recurring/1/pause"');
      expect((await h.post('/app/recurring/1/pause', {})).status).toBe(303);
    } finally {
      await h.close();
    }
  });

  it('shows a viewer everything without buttons and refuses a forged pause in German without calling the API', async () => {
    for (const role of ['viewer']) {
      const h = await harness({ role, lang: 'de' });
      try {
        const page = await h.get('/app/recurring/1');
        expect(page.html).toContain('Office rent');
        expect(page.html).not.toContain('/pause"');
        const forged = await h.post('/app/recurring/1/pause', {});
        expect(forged.status).toBe(403);
        expect(forged.html).toContain('Ihre Rolle darf das nicht');
        expect(h.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
      } finally {
        await h.close();
      }
    }
  });

  it('answers hostile ids with a 404 page without calling the API, and escapes names', async () => {
    const h = await harness({
      api: (c) => (c.path === '/recurring-invoices/1' ? { status: 200, body: { ...schedule, name: '<script>alert(1)</script>' } } : api(c)),
    });
    try {
      for (const path of ['/app/recurring/..%2Fx', '/app/recurring/%2e%2e%2f1', '/app/recurring/1abc', '/app/recurring/0'])
        expect((await h.get(path)).status).toBe(404);
      expect((await h.post('/app/recurring/..%2F1/pause', {})).status).toBe(404);
      expect(h.calls).toHaveLength(0);
      const page = await h.get('/app/recurring/1');
      expect(page.html).not.toContain('<script>alert');
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect((await h.get('/app/recurring/9')).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});
