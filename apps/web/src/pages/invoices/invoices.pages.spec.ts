import { pageHarness, type ApiCallSeen, type FakeAnswer } from '../../testing/page-harness';
import { customers, draft, finalized, invoiceApi } from './invoice-fixtures';
import { amountOf } from './invoice-actions';
import { registerInvoicePages, SEARCH_PARAM } from './invoices.pages';

type Opts = { role?: string; lang?: 'de' | 'en'; extra?: (c: ApiCallSeen) => FakeAnswer | undefined };
const harness = (o: Opts = {}) => pageHarness({ register: registerInvoicePages, role: o.role, lang: o.lang, api: invoiceApi(o.extra) });
const UUID = /^[0-9a-f-]{36}$/;
const idemOf = (html: string) => /name="idem" value="([^"]+)"/.exec(html)?.[1];

describe('invoice list', () => {
  it('shows number, customer, status, dates, total and open amount with the member’s token', async () => {
    const h = await harness();
    try {
      const page = await h.get('/app/invoices');
      expect(page.status).toBe(200);
      expect(page.html).toContain('RE-2026-00042');
      expect(page.html).toContain('Müller &amp; Söhne');
      expect(page.html).toContain('Draft 43');
      expect(page.html).toContain('€22,481.00');
      expect(page.html).toContain('€21,362.00');
      expect(page.html).toContain('5 Dec 2026');
      expect(page.html).toContain('href="/app/invoices/42"');
      // paging as the API pages: 60 documents in pages of 25
      expect(page.html).toContain('Page 1 of 3 · 60 documents');
      expect(page.html).toMatch(/rel="next" href="\/app\/invoices\?page=2"/);
      const list = h.calls.find((c) => c.path.startsWith('/invoice/?'))!;
      expect(list.path).toBe('/invoice/?limit=25');
      expect(list.authorization).toMatch(/^Bearer mt_/);
    } finally {
      await h.close();
    }
  });

  it('passes the whitelisted filters and the search on as the API names them, and nothing else', async () => {
    const h = await harness();
    try {
      const page = await h.get(
        `/app/invoices?${SEARCH_PARAM}=M%C3%BCller&status=OPEN&customer_id=7&document_type=INVOICE&date_from=2026-01-01&date_to=2026-12-31&due_from=2026-02-01&due_to=2026-12-01&open=true&overdue=true&sort=-amount&page=2&limit=1000&evil=1`,
      );
      expect(page.status).toBe(200);
      const list = h.calls.find((c) => c.path.startsWith('/invoice/?'))!;
      const q = new URLSearchParams(list.path.split('?')[1]);
      expect(Object.fromEntries(q)).toEqual({
        q: 'Müller',
        status: 'OPEN',
        customer_id: '7',
        document_type: 'INVOICE',
        date_from: '2026-01-01',
        date_to: '2026-12-31',
        due_from: '2026-02-01',
        due_to: '2026-12-01',
        open: 'true',
        overdue: 'true',
        sort: '-amount',
        page: '2',
        limit: '25',
      });
      // the form shows what was asked for
      expect(page.html).toContain('value="Müller"');
      expect(page.html).toMatch(/<option value="OPEN" selected>/);
      expect(page.html).toMatch(/<option value="7" selected>/);
    } finally {
      await h.close();
    }
  });

  it('keeps a search text with & and = as one value (no query injection) and escapes it on the page', async () => {
    const h = await harness();
    try {
      const page = await h.get(`/app/invoices?q=${encodeURIComponent('a&status=PAID"><script>x</script>')}`);
      const list = h.calls.find((c) => c.path.startsWith('/invoice/?'))!;
      const q = new URLSearchParams(list.path.split('?')[1]);
      expect(q.get('q')).toBe('a&status=PAID"><script>x</script>');
      expect(q.get('status')).toBeNull();
      expect(page.html).not.toContain('<script>x');
      expect(page.html).toContain('&lt;script&gt;x');
    } finally {
      await h.close();
    }
  });

  it('answers bad filters 400 in the page language without calling the list', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const page = await h.get('/app/invoices?status=BOGUS&customer_id=..%2F1');
      expect(page.status).toBe(400);
      expect(page.html).toContain('Bitte prüfen Sie die Filter: Status, Kunde.');
      const dates = await h.get('/app/invoices?date_from=2026-12-01&date_to=2026-01-01');
      expect(dates.status).toBe(400);
      expect(dates.html).toContain('Bitte prüfen Sie die Filter: Rechnungsdatum bis.');
      expect(h.calls.some((c) => c.path.startsWith('/invoice/'))).toBe(false);
    } finally {
      await h.close();
    }
  });

  it('shows an empty state, and the API’s refusal as a message', async () => {
    const empty = await harness({
      lang: 'de',
      extra: (c) =>
        c.path.startsWith('/invoice/?')
          ? { status: 200, body: { invoices: [], total: 0, page: 1, limit: 25, next_cursor: null } }
          : undefined,
    });
    try {
      expect((await empty.get('/app/invoices')).html).toContain('Noch keine Rechnungen.');
      expect((await empty.get('/app/invoices?status=PAID')).html).toContain('Keine Rechnung passt zu diesen Filtern.');
    } finally {
      await empty.close();
    }
    const refused = await harness({
      extra: (c) => (c.path.startsWith('/invoice/?') ? { status: 503, body: { code: 'SERVICE_UNAVAILABLE' } } : undefined),
    });
    try {
      const page = await refused.get('/app/invoices');
      expect(page.status).toBe(502);
      expect(page.html).toContain('class="msg error"');
    } finally {
      await refused.close();
    }
  });

  it('escapes a customer name with markup', async () => {
    const h = await harness({
      extra: (c) =>
        c.path.startsWith('/customer/?')
          ? { status: 200, body: [{ ...customers[0], organization_name: '<img src=x onerror=alert(1)>' }] }
          : undefined,
    });
    try {
      const page = await h.get('/app/invoices');
      expect(page.html).not.toContain('<img src=x');
      expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    } finally {
      await h.close();
    }
  });
});

describe('invoice detail', () => {
  it('shows positions, totals per VAT rate, payments, e-mails, reminders, credit notes, attachments, timeline and the change log (owner, English)', async () => {
    const h = await harness();
    try {
      const page = await h.get('/app/invoices/42');
      expect(page.status).toBe(200);
      const html = page.html;
      expect(html).toContain('Invoice RE-2026-00042');
      expect(html).toContain('Beratung (Stunden) für die Einführung');
      expect(html).toContain('Position 20');
      // 19 %: 9,900 + 1,881 = 11,781; 7 %: 10,000 + 700 = 10,700
      expect(html).toContain('€11,781.00');
      expect(html).toContain('€10,700.00');
      expect(html).toContain('€22,481.00');
      expect(html).toContain('Bank transfer');
      expect(html).toContain('Rechnung RE-2026-00042'); // the e-mail's subject
      expect(html).toContain('Level 2');
      expect(html).toContain('href="/app/invoices/42/reminders/2/pdf"');
      expect(html).toContain('GS-2026-00003');
      expect(html).toContain('href="/app/invoices/42/attachments/12"');
      expect(html).toContain('Payment of €1,000.00 received');
      expect(html).toContain('Finalized');
      expect(html).toContain('<code>invoice.finalized</code>');
      for (const a of ['send', 'payment', 'credit-note', 'pdf', 'xml']) expect(html).toContain(`href="/app/invoices/42/${a}"`);
      expect(html).not.toContain('href="/app/invoices/42/finalize"');
      expect(html).not.toContain('href="/app/invoices/42/cancel"');
      const audit = h.calls.find((c) => c.path.startsWith('/audit-log/'))!;
      expect(audit.path).toBe('/audit-log/?resource_type=invoice&resource_id=42&limit=50');
      expect(h.calls.find((c) => c.path.startsWith('/invoice/?'))!.path).toBe(
        '/invoice/?document_type=CREDIT_NOTE&customer_id=7&limit=100',
      );
    } finally {
      await h.close();
    }
  });

  it('shows a draft with finalize, preview and cancel, in German', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const html = (await h.get('/app/invoices/43')).html;
      expect(html).toContain('Rechnung Entwurf 43');
      expect(html).toContain('Festschreiben');
      expect(html).toContain('href="/app/invoices/43/finalize"');
      expect(html).toContain('href="/app/invoices/43/preview"');
      expect(html).toContain('href="/app/invoices/43/cancel"');
      expect(html).toContain('Summen nach USt.-Satz');
      expect(html).toContain('1.071,00');
      expect(html).not.toContain('href="/app/invoices/43/pdf"');
    } finally {
      await h.close();
    }
  });

  it('shows a viewer everything and no action; a member no change log', async () => {
    const viewer = await harness({ role: 'viewer', lang: 'de' });
    try {
      const html = (await viewer.get('/app/invoices/42')).html;
      expect(html).toContain('Zahlungseingänge');
      expect(html).toContain('href="/app/invoices/42/pdf"');
      for (const a of ['send', 'payment', 'credit-note', 'finalize', 'cancel']) expect(html).not.toContain(`href="/app/invoices/42/${a}"`);
      expect(viewer.calls.some((c) => c.path.startsWith('/audit-log/'))).toBe(false);
    } finally {
      await viewer.close();
    }
    const member = await harness({ role: 'member' });
    try {
      const html = (await member.get('/app/invoices/42')).html;
      expect(html).toContain('href="/app/invoices/42/payment"');
      expect(html).not.toContain('Change log');
      expect(member.calls.some((c) => c.path.startsWith('/audit-log/'))).toBe(false);
    } finally {
      await member.close();
    }
  });

  it.each(['..%2Fx', '%2e%2e', '0', '42abc', '99999999999', '-1', '42%3Fstatus%3DPAID'])(
    'answers the id %s 404 without calling the API',
    async (id) => {
      const h = await harness();
      try {
        for (const sub of ['', '/pdf', '/payment', '/preview', '/attachments/1']) {
          const page = await h.get(`/app/invoices/${id}${sub}`);
          expect(page.status).toBe(404);
        }
        const posted = await h.post(`/app/invoices/${id}/payment`, { amount: '1', date: '2026-11-29', method: 'CASH' });
        expect(posted.status).toBe(404);
        expect(h.calls).toHaveLength(0);
      } finally {
        await h.close();
      }
    },
  );

  it('answers an invoice the API does not know 404', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const page = await h.get('/app/invoices/77');
      expect(page.status).toBe(404);
      expect(page.html).toContain('Diese Rechnung gibt es nicht (mehr).');
    } finally {
      await h.close();
    }
  });
});

describe('downloads', () => {
  it('sends the browser to the presigned link of the PDF, XML, a reminder and an attachment', async () => {
    const link = { url: 'https://files.example/doc?sig=1', filename: 'RE-2026-00042.pdf', expires_in: 300 };
    const h = await harness({
      extra: (c) =>
        /^\/invoice\/42\/(pdf-link|xml-link|reminders\/2\/pdf)$/.test(c.path)
          ? { status: 200, body: link }
          : c.path === '/invoice/42/attachments/12'
            ? { status: 200, body: { ...link, content_type: 'application/pdf' } }
            : undefined,
    });
    try {
      for (const p of ['pdf', 'xml', 'reminders/2/pdf', 'attachments/12']) {
        const r = await h.get(`/app/invoices/42/${p}`);
        expect(r.status).toBe(303);
        expect(r.location).toBe(link.url);
      }
      expect(h.calls.map((c) => c.path)).toEqual([
        '/invoice/42/pdf-link',
        '/invoice/42/xml-link',
        '/invoice/42/reminders/2/pdf',
        '/invoice/42/attachments/12',
      ]);
    } finally {
      await h.close();
    }
  });

  it('refuses a link that is not http(s), and goes back with the API’s refusal', async () => {
    const h = await harness({
      extra: (c) =>
        c.path === '/invoice/42/pdf-link'
          ? { status: 200, body: { url: 'javascript:alert(1)', filename: 'x.pdf', expires_in: 300 } }
          : c.path === '/invoice/43/pdf-link'
            ? { status: 409, body: { code: 'INVOICE_NOT_FINALIZED', detail: 'draft' } }
            : undefined,
    });
    try {
      expect((await h.get('/app/invoices/42/pdf')).status).toBe(502);
      const refused = await h.get('/app/invoices/43/pdf');
      expect(refused.status).toBe(303);
      expect(refused.location).toBe('/app/invoices/43');
      expect(h.takeFlash()).toEqual({ kind: 'error', text: 'This needs a finalized invoice.' });
    } finally {
      await h.close();
    }
  });

  it('streams a draft’s preview PDF as a download', async () => {
    const pdf = Buffer.from('%PDF-1.7 preview');
    const h = await harness({
      extra: (c) => (c.path === '/invoice/43/preview' ? { status: 200, raw: pdf, contentType: 'application/pdf' } : undefined),
    });
    try {
      const res = await fetch(`${h.url}/app/invoices/43/preview`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="preview-43.pdf"');
      expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('%PDF-1.7 preview');
    } finally {
      await h.close();
    }
  });
});

describe('invoice actions', () => {
  it('finalizes a draft: the job with the form’s idempotency key, then its outcome', async () => {
    const h = await harness({
      extra: (c) =>
        c.method === 'POST' && c.path === '/invoice/43/job'
          ? { status: 201, body: { message: 'finalization job queued', job_id: 'job-1' } }
          : c.path === '/invoice/43/job/job-1?wait=10'
            ? {
                status: 200,
                body: {
                  job_id: 'job-1',
                  id: 'job-1',
                  task: 'process_invoice_flag_invoice_send_job',
                  status: 'finished',
                  invoice_id: 43,
                  created_at: '2026-11-29T10:00:00.000Z',
                  started_at: null,
                  finished_at: '2026-11-29T10:00:01.000Z',
                },
              }
            : undefined,
    });
    try {
      const form = await h.get('/app/invoices/43/finalize');
      expect(form.status).toBe(200);
      const idem = idemOf(form.html)!;
      expect(idem).toMatch(UUID);
      const done = await h.post('/app/invoices/43/finalize', { idem });
      expect(done.status).toBe(303);
      expect(done.location).toBe('/app/invoices/43');
      expect(h.takeFlash()).toEqual({ kind: 'ok', text: 'The invoice was finalized.' });
      const job = h.calls.find((c) => c.method === 'POST')!;
      expect(job.path).toBe('/invoice/43/job');
      expect(job.body).toEqual({ task: 'process_invoice_flag_invoice_send_job' });
      expect(job.idempotencyKey).toBe(idem);
    } finally {
      await h.close();
    }
  });

  it('lists what blocks finalizing and offers no button then', async () => {
    const h = await harness({
      lang: 'de',
      extra: (c) =>
        c.path === '/invoice/43/validate'
          ? {
              status: 200,
              body: {
                valid: false,
                errors: [{ field: 'company.vat_id', rule: 'BR-CO-26', message: 'The seller needs a VAT ID <b>' }],
                warnings: [],
                checks: [],
                vat_check: { status: 'valid' },
                vat_override_required: false,
              },
            }
          : undefined,
    });
    try {
      const page = await h.get('/app/invoices/43/finalize');
      expect(page.html).toContain('Diese Rechnung kann noch nicht festgeschrieben werden:');
      expect(page.html).toContain('The seller needs a VAT ID &lt;b&gt;');
      expect(page.html).not.toContain('action="/app/invoices/43/finalize"');
    } finally {
      await h.close();
    }
  });

  it('offers the VAT override when the API asks for it and shows its 422 in German', async () => {
    const h = await harness({
      lang: 'de',
      extra: (c) =>
        c.path === '/invoice/43/validate'
          ? {
              status: 200,
              body: {
                valid: false,
                errors: [{ field: 'customer.vat_id', rule: 'VAT_OVERRIDE_REQUIRED', message: 'not confirmed' }],
                warnings: [],
                checks: [],
                vat_check: { status: 'invalid' },
                vat_override_required: true,
              },
            }
          : c.method === 'POST' && c.path === '/invoice/43/job'
            ? {
                status: 422,
                body: { code: 'VAT_OVERRIDE_REQUIRED', detail: 'x', errors: [{ path: 'customer.vat_id', message: 'not confirmed' }] },
              }
            : undefined,
    });
    try {
      const form = await h.get('/app/invoices/43/finalize');
      expect(form.html).toContain('name="vat_override"');
      const refused = await h.post('/app/invoices/43/finalize', { idem: idemOf(form.html)! });
      expect(refused.status).toBe(422);
      expect(refused.html).toContain('Die USt.-IdNr. des Kunden ist nicht bestätigt.');
      await h.post('/app/invoices/43/finalize', { idem: idemOf(form.html)!, vat_override: 'yes' });
      expect(h.calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({
        task: 'process_invoice_flag_invoice_send_job',
        vat_override_confirmed: true,
      });
    } finally {
      await h.close();
    }
  });

  it('sends by e-mail to the customer’s address (prefilled, editable) with the attachments chosen', async () => {
    const h = await harness({
      extra: (c) =>
        c.method === 'POST' && c.path === '/invoice/42/send_email'
          ? { status: 202, body: { message: 'e-mail queued', email_id: 'e1' } }
          : undefined,
    });
    try {
      const form = await h.get('/app/invoices/42/send');
      expect(form.html).toContain('value="buchhaltung@mueller-soehne-gebaeudetechnik.example"');
      const idem = idemOf(form.html)!;
      const sent = await h.post('/app/invoices/42/send', {
        idem,
        to: 'ap@buyer.example, second@buyer.example',
        cc: '',
        subject: 'Ihre Rechnung',
        message: '',
        attach_pdf: 'yes',
      });
      expect(sent.status).toBe(303);
      expect(h.takeFlash()?.text).toBe('The e-mail is on its way.');
      const call = h.calls.find((c) => c.method === 'POST')!;
      expect(call.body).toEqual({
        to: ['ap@buyer.example', 'second@buyer.example'],
        subject: 'Ihre Rechnung',
        attach_pdf: true,
        attach_xml: false,
      });
      expect(call.idempotencyKey).toBe(idem);
    } finally {
      await h.close();
    }
  });

  it('refuses an e-mail without a recipient before calling the API, and shows the API’s 429 in German', async () => {
    const h = await harness({
      lang: 'de',
      extra: (c) => (c.method === 'POST' ? { status: 429, body: { code: 'EMAIL_LIMIT_EXCEEDED', detail: 'limit' } } : undefined),
    });
    try {
      const empty = await h.post('/app/invoices/42/send', { to: ' , ' });
      expect(empty.status).toBe(400);
      expect(empty.html).toContain('Bitte geben Sie eine bis zehn E-Mail-Adressen ein.');
      expect(h.calls.some((c) => c.method === 'POST')).toBe(false);
      const limited = await h.post('/app/invoices/42/send', { to: 'a@b.example' });
      expect(limited.status).toBe(429);
      expect(limited.html).toContain('Das heutige E-Mail-Kontingent ist erreicht.');
      expect(limited.html).toContain('value="a@b.example"');
    } finally {
      await h.close();
    }
  });

  it('records a payment typed in German as the API’s decimal text', async () => {
    const h = await harness({
      lang: 'de',
      extra: (c) =>
        c.method === 'POST' && c.path === '/invoice/42/payments'
          ? {
              status: 201,
              body: {
                message: 'payment recorded',
                id: 8,
                invoice_id: 42,
                amount: 1071.5,
                discount: 0,
                date: '2026-11-28',
                method: 'CASH',
                reference: null,
                source: 'manual',
                exported: false,
                reversed_at: null,
                created_at: '2026-11-28T10:00:00.000Z',
                open_amount: 20290.5,
                customer_name: 'Muster GmbH',
                invoice_status: 'OPEN',
              },
            }
          : undefined,
    });
    try {
      const form = await h.get('/app/invoices/42/payment');
      expect(form.html).toContain('value="21362,00"');
      expect(form.html).toContain('value="RE-2026-00042"');
      const idem = idemOf(form.html)!;
      const done = await h.post('/app/invoices/42/payment', {
        idem,
        amount: '1.071,50',
        date: '2026-11-28',
        method: 'CASH',
        reference: '',
      });
      expect(done.status).toBe(303);
      expect(h.takeFlash()?.text).toMatch(/^Zahlungseingang erfasst\. Offener Betrag jetzt: 20\.290,50\s€\.$/);
      const call = h.calls.find((c) => c.method === 'POST')!;
      expect(call.body).toEqual({ amount: '1071.50', date: '2026-11-28', method: 'CASH' });
      expect(call.idempotencyKey).toBe(idem);
    } finally {
      await h.close();
    }
  });

  it('refuses a bad amount before the API and shows the API’s 409 translated', async () => {
    const h = await harness({
      extra: (c) => (c.method === 'POST' ? { status: 409, body: { code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', detail: 'too much' } } : undefined),
    });
    try {
      const bad = await h.post('/app/invoices/42/payment', { amount: '12.345', date: '2026-11-28', method: 'CASH' });
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('Please enter an amount such as 119.00');
      expect(h.calls.some((c) => c.method === 'POST')).toBe(false);
      const refused = await h.post('/app/invoices/42/payment', { amount: '99999', date: '2026-11-28', method: 'CASH' });
      expect(refused.status).toBe(409);
      expect(refused.html).toContain('The amount is more than the open amount.');
      expect(refused.html).toContain('value="99999"');
    } finally {
      await h.close();
    }
  });

  it('creates a full and a partial credit note and opens it', async () => {
    const h = await harness({
      extra: (c) =>
        c.method === 'POST' && c.path === '/invoice/42/credit-note'
          ? { status: 201, body: { message: 'credit note created', invoice_id: 44 } }
          : undefined,
    });
    try {
      const form = await h.get('/app/invoices/42/credit-note');
      // two VAT rates: the whole invoice only (the API credits an amount for one rate only)
      expect(form.html).not.toContain('value="amount"');
      expect((await h.get('/app/invoices/43/credit-note')).html).toContain('value="amount"');
      const idem = idemOf(form.html)!;
      const full = await h.post('/app/invoices/42/credit-note', { idem, kind: 'full', amount: '' });
      expect(full.location).toBe('/app/invoices/44');
      const part = await h.post('/app/invoices/42/credit-note', { idem: idemOf(form.html)!, kind: 'amount', amount: '59.5' });
      expect(part.location).toBe('/app/invoices/44');
      const posts = h.calls.filter((c) => c.method === 'POST');
      expect(posts.map((c) => c.body)).toEqual([{}, { amount: '59.5' }]);
      expect(posts[0]!.idempotencyKey).toBe(idem);
    } finally {
      await h.close();
    }
  });

  it('shows CREDIT_EXCEEDS_INVOICE in German', async () => {
    const h = await harness({
      lang: 'de',
      extra: (c) => (c.method === 'POST' ? { status: 409, body: { code: 'CREDIT_EXCEEDS_INVOICE', remaining_gross: 0 } } : undefined),
    });
    try {
      const r = await h.post('/app/invoices/42/credit-note', { kind: 'full' });
      expect(r.status).toBe(409);
      expect(r.html).toContain('Die Gutschriften würden den Bruttobetrag der Rechnung übersteigen.');
    } finally {
      await h.close();
    }
  });

  it('cancels a draft after the question, and translates the API’s refusal', async () => {
    let answer: FakeAnswer = { status: 200, body: { message: 'invoice cancelled', status: 'CANCELLED' } };
    const h = await harness({ lang: 'de', extra: (c) => (c.method === 'POST' && c.path === '/invoice/43/cancel' ? answer : undefined) });
    try {
      const q = await h.get('/app/invoices/43/cancel');
      expect(q.html).toContain('Den Entwurf Entwurf 43 stornieren?');
      expect(h.calls.some((c) => c.method === 'POST')).toBe(false);
      const done = await h.post('/app/invoices/43/cancel', { idem: idemOf(q.html)! });
      expect(done.location).toBe('/app/invoices/43');
      expect(h.takeFlash()?.text).toBe('Der Entwurf wurde storniert.');
      answer = { status: 409, body: { code: 'INVOICE_ALREADY_FINALIZED', detail: 'x' } };
      const refused = await h.post('/app/invoices/43/cancel', {});
      expect(refused.status).toBe(409);
      expect(refused.html).toContain('Eine festgeschriebene Rechnung kann nicht storniert werden');
    } finally {
      await h.close();
    }
  });

  it.each(['finalize', 'send', 'payment', 'credit-note', 'cancel'])(
    'refuses a viewer’s %s page and forged POST with a 403 in German, without calling the API',
    async (action) => {
      const h = await harness({ role: 'viewer', lang: 'de' });
      try {
        const page = await h.get(`/app/invoices/42/${action}`);
        expect(page.status).toBe(403);
        const posted = await h.post(`/app/invoices/42/${action}`, {
          amount: '1',
          date: '2026-11-28',
          method: 'CASH',
          to: 'a@b.example',
          kind: 'full',
        });
        expect(posted.status).toBe(403);
        expect(posted.html).toContain('Ihre Rolle darf das nicht');
        expect(h.calls).toHaveLength(0);
      } finally {
        await h.close();
      }
    },
  );

  it('refuses a POST without the CSRF token', async () => {
    const h = await harness();
    try {
      const r = await h.post('/app/invoices/42/payment', { amount: '1', date: '2026-11-28', method: 'CASH' }, 'wrong');
      expect(r.status).toBe(403);
      expect(h.calls).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});

describe('amounts typed', () => {
  it.each([
    ['de', '1.071,50', '1071.50'],
    ['de', '119,5', '119.5'],
    ['de', '119', '119'],
    ['en', '1,071.50', '1071.50'],
    ['en', '119.50', '119.50'],
    ['en', ' 119,5 € ', '119.5'],
  ] as const)('%s %s -> %s', (lang, raw, out) => expect(amountOf(lang, raw)).toBe(out));
  it.each(['', '0', '-5', '1.2.3', '12.345', 'abc', '1e5', '1'.repeat(25)])('refuses %s', (raw) =>
    expect(amountOf('en', raw)).toBeUndefined(),
  );
  it('draft fixture is a draft', () => expect([draft.status, finalized.status]).toEqual(['DRAFT', 'OPEN']));
});
