import { Reminder, ReminderPage, ReminderSettings } from '@inv/contracts';
import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { invoice } from '../bank/fixtures';
import { customer, proposal, reminder, sentReminder, settings } from './fixtures';
import { registerReminderPages } from './reminders.pages';

const api: FakeApi = (c) => {
  if (c.path === '/invoice/reminder-settings') return { status: 200, body: settings };
  if (c.path === '/invoice/reminder-proposals') return { status: 200, body: { proposals: [proposal] } };
  if (c.path.startsWith('/invoice/reminders?'))
    return {
      status: 200,
      body: { reminders: [sentReminder, { ...sentReminder, id: 6, level: 2, email_id: 'mail-6' }], next_cursor: 'r6' },
    };
  if (c.path.startsWith('/invoice/?'))
    return { status: 200, body: { invoices: [invoice], total: 11, page: 1, limit: 10, next_cursor: null } };
  if (c.method === 'GET' && c.path === '/invoice/44/reminders') return { status: 200, body: { reminders: [reminder] } };
  if (c.method === 'GET' && c.path === '/invoice/44') return { status: 200, body: invoice };
  if (c.path === '/customer/9') return { status: 200, body: customer };
  if (c.method === 'POST' && c.path === '/invoice/44/reminders')
    return {
      status: 201,
      body: { ...reminder, id: 3, level: 2, email_id: (c.body as { send_email?: boolean }).send_email ? 'mail-1' : null },
    };
  if (c.path === '/invoice/44/reminders/2/pdf')
    return {
      status: 200,
      body: { url: 'https://files.example/r.pdf?sig=1', filename: 'Mahnung.pdf', content_type: 'application/pdf', expires_in: 300 },
    };
  return undefined;
};
const harness = (o: { role?: string; lang?: 'de' | 'en'; api?: FakeApi } = {}) =>
  pageHarness({ register: registerReminderPages, api: o.api ?? api, role: o.role, lang: o.lang });

describe('reminder pages', () => {
  it('the fixtures are shaped as the API answers', () => {
    expect(ReminderSettings.safeParse(settings).error).toBeUndefined();
    expect(Reminder.safeParse(reminder).error).toBeUndefined();
    expect(ReminderPage.safeParse({ reminders: [sentReminder], next_cursor: 'r6' }).error).toBeUndefined();
  });

  it('lists every reminder sent, with the invoice, its filters passed on and a link to older ones', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const page = await h.get('/app/reminders/sent?level=2&date_from=2026-11-01&date_to=');
      expect(page.status).toBe(200);
      expect(h.calls.map((c) => c.path)).toEqual(['/invoice/reminders?level=2&date_from=2026-11-01&limit=25']);
      expect(page.html).toContain('Versendete Mahnungen');
      expect(page.html).toContain('href="/app/reminders/invoices/44"');
      expect(page.html).toContain('Beispiel AG');
      expect(page.html).toContain('1. Mahnung');
      expect(page.html).toContain('per E-Mail');
      expect(page.html).toContain('href="/app/reminders/invoices/44/7/pdf"');
      expect(page.html).toContain('<option value="2" selected>');
      expect(page.html).toContain('href="/app/reminders/sent?level=2&amp;date_from=2026-11-01&amp;cursor=r6"');
      expect(page.html).toContain('aria-current="page">Versendete Mahnungen');
      const older = await h.get('/app/reminders/sent?cursor=r6');
      expect(h.calls.at(-1)!.path).toBe('/invoice/reminders?cursor=r6&limit=25');
      expect(older.html).toContain('href="/app/reminders/sent">Zu den neuesten');
    } finally {
      await h.close();
    }
  });

  it('refuses a filter value the API would refuse without calling it, and shows an empty list as such', async () => {
    const h = await harness({
      lang: 'en',
      api: (c) => (c.path.startsWith('/invoice/reminders?') ? { status: 200, body: { reminders: [], next_cursor: null } } : api(c)),
    });
    try {
      for (const q of [
        'level=4',
        'cursor=%24where',
        'date_from=%3Cscript%3E',
        'cursor=r0',
        'date_from=2026-02-30',
        'date_from=2026-03-02&date_to=2026-03-01',
      ]) {
        const page = await h.get(`/app/reminders/sent?${q}`);
        expect([q, page.status]).toEqual([q, 400]);
        expect(page.html).toContain('A filter value is not valid');
        expect(page.html).not.toContain('<script>');
      }
      expect(h.calls).toHaveLength(0);
      const empty = await h.get('/app/reminders/sent');
      expect(empty.html).toContain('No reminders found.');
      expect(empty.html).not.toContain('rel="next"');
    } finally {
      await h.close();
    }
  });

  it('shows the proposals to approve and the overdue invoices with their reminders, in German', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const page = await h.get('/app/reminders?page=2');
      expect(page.status).toBe(200);
      const paths = h.calls.map((c) => c.path);
      expect(paths).toContain('/invoice/reminder-proposals');
      expect(paths).toContain('/invoice/?overdue=true&document_type=INVOICE&sort=date&page=2&limit=10');
      expect(paths).toContain('/invoice/44/reminders');
      expect(page.html).toContain('Vorschlagen: Der tägliche Mahnlauf');
      expect(page.html).toContain('href="/app/invoices/44"');
      expect(page.html).toContain('1. Mahnung');
      expect(page.html).toContain('Beispiel AG');
      expect(page.html).toContain('357,00\u00a0€');
      expect(page.html).toContain('Freigeben und per E-Mail senden');
      expect(page.html).toContain('Zahlungserinnerung, 22.11.2026');
      expect(page.html).toContain('href="/app/reminders/invoices/44/2/pdf"');
      expect(page.html).toContain('href="/app/reminders/invoices/44"');
    } finally {
      await h.close();
    }
  });

  it('approves a proposal: its level, by e-mail, with the idempotency key', async () => {
    const h = await harness();
    try {
      const done = await h.post('/app/reminders/issue', {
        invoice_id: '44',
        level: '2',
        send: 'email',
        number: 'RE-2026-0044',
        back: 'list',
        idem: 'idem-reminder-01',
      });
      expect(done.status).toBe(303);
      expect(done.location).toBe('/app/reminders');
      const post = h.calls.find((c) => c.method === 'POST')!;
      expect(post.path).toBe('/invoice/44/reminders');
      expect(post.body).toEqual({ level: 2, send_email: true });
      expect(post.idempotencyKey).toBe('idem-reminder-01');
      expect(h.takeFlash()?.text).toBe('The Overdue notice for invoice RE-2026-0044 was created and sent by e-mail.');
    } finally {
      await h.close();
    }
  });

  it('creates the PDF only, back on the invoice’s page', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const done = await h.post('/app/reminders/issue', {
        invoice_id: '44',
        level: '9',
        send: 'pdf',
        number: 'RE-2026-0044',
        back: 'invoice',
      });
      expect(done.location).toBe('/app/reminders/invoices/44');
      expect(h.calls.find((c) => c.method === 'POST')!.body).toEqual({ send_email: false });
      expect(h.takeFlash()?.text).toBe('1. Mahnung zu Rechnung RE-2026-0044 wurde erstellt (PDF, ohne E-Mail).');
    } finally {
      await h.close();
    }
  });

  it('shows the API’s refusals translated: a level issued already, an invoice without an e-mail address', async () => {
    let answer = { status: 409, body: { code: 'REMINDER_LEVEL_ISSUED', detail: 'invoice RE-2026-0044 already had a reminder of level 2' } };
    const h = await harness({ lang: 'de', api: (c) => (c.method === 'POST' ? answer : api(c)) });
    try {
      await h.post('/app/reminders/issue', { invoice_id: '44', level: '2', send: 'email' });
      expect(h.takeFlash()).toEqual({
        kind: 'error',
        text: 'Diese Mahnstufe wurde zu der Rechnung schon erstellt. Laden Sie die Seite neu.',
      });
      answer = {
        status: 400,
        body: {
          code: 'VALIDATION_ERROR',
          detail: 'the reminder cannot be e-mailed as requested',
          errors: [{ path: 'to', message: 'required' }],
        } as never,
      };
      await h.post('/app/reminders/issue', { invoice_id: '44', level: '2', send: 'email' });
      expect(h.takeFlash()?.text).toContain('Erstellen Sie sie nur als PDF.');
    } finally {
      await h.close();
    }
  });

  it('shows one invoice’s reminders with fees, interest and PDF, and offers the next level', async () => {
    const h = await harness();
    try {
      const page = await h.get('/app/reminders/invoices/44');
      expect(page.status).toBe(200);
      expect(page.html).toContain('Reminders of invoice RE-2026-0044');
      expect(page.html).toContain('€26.86');
      expect(page.html).toContain('€1,031.86');
      expect(page.html).toContain('no e-mail');
      expect(page.html).toContain('href="/app/reminders/invoices/44/2/pdf"');
      expect(page.html).toContain('name="level" value="2"');
    } finally {
      await h.close();
    }
  });

  it('sends the browser to the PDF’s presigned link', async () => {
    const h = await harness();
    try {
      const res = await h.get('/app/reminders/invoices/44/2/pdf');
      expect(res.status).toBe(303);
      expect(res.location).toBe('https://files.example/r.pdf?sig=1');
      const missing = await h.get('/app/reminders/invoices/44/7/pdf');
      expect(missing.status).toBe(404);
    } finally {
      await h.close();
    }
  });

  it('lets a member approve a proposal (invoices:write)', async () => {
    const h = await harness({ role: 'member' });
    try {
      expect((await h.get('/app/reminders')).html).toContain('action="/app/reminders/issue"');
      expect((await h.post('/app/reminders/issue', { invoice_id: '44', level: '2', send: 'email' })).status).toBe(303);
    } finally {
      await h.close();
    }
  });

  it('shows a viewer the lists without buttons and refuses a forged approval in German without calling the API', async () => {
    const h = await harness({ role: 'viewer', lang: 'de' });
    try {
      const page = await h.get('/app/reminders');
      expect(page.html).toContain('RE-2026-0044');
      expect(page.html).not.toContain('action="/app/reminders/issue"');
      expect((await h.get('/app/reminders/invoices/44')).html).not.toContain('action="/app/reminders/issue"');
      const forged = await h.post('/app/reminders/issue', { invoice_id: '44', level: '2', send: 'email' });
      expect(forged.status).toBe(403);
      expect(forged.html).toContain('Ihre Rolle darf das nicht');
      expect(h.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    } finally {
      await h.close();
    }
  });

  it('answers hostile ids with a 404 page without calling the API, and escapes names', async () => {
    const h = await harness({
      api: (c) => (c.path === '/customer/9' ? { status: 200, body: { ...customer, organization_name: '<script>x</script>' } } : api(c)),
    });
    try {
      for (const path of [
        '/app/reminders/invoices/..%2Fx',
        '/app/reminders/invoices/%2e%2e%2f44',
        '/app/reminders/invoices/44/..%2F1/pdf',
        '/app/reminders/invoices/4 4',
      ])
        expect((await h.get(path)).status).toBe(404);
      expect((await h.post('/app/reminders/issue', { invoice_id: '../44', send: 'email' })).status).toBe(404);
      expect(h.calls).toHaveLength(0);
      const page = await h.get('/app/reminders?page=%3Cscript%3E');
      expect(page.html).not.toContain('<script>x');
      expect(page.html).toContain('&lt;script&gt;x');
      expect(h.calls.map((c) => c.path)).toContain('/invoice/?overdue=true&document_type=INVOICE&sort=date&page=1&limit=10');
    } finally {
      await h.close();
    }
  });
});
