import { BankStatementDetail, InvoicePage } from '@inv/contracts';
import { pageHarness, TEST_CSRF, type FakeApi } from '../../testing/page-harness';
import { registerBankStatementPages } from './bank.pages';
import { confirmed, detail, entry, invoice, statement } from './fixtures';

const list = { bank_statements: [statement], total: 60, page: 2, limit: 25 };
const api: FakeApi = (c) => {
  if (c.method === 'GET' && c.path.startsWith('/bank-statements/?')) return { status: 200, body: list };
  if (c.method === 'GET' && c.path.startsWith('/bank-statements/3?')) return { status: 200, body: detail };
  if (c.method === 'GET' && c.path.startsWith('/invoice/?'))
    return { status: 200, body: { invoices: [invoice], total: 1, page: 1, limit: 20, next_cursor: null } };
  if (c.method === 'POST' && c.path === '/bank-statements/')
    return { status: 201, body: { message: 'bank statement imported', ...detail, page: 1, limit: 100 } };
  if (c.method === 'POST' && c.path.endsWith('/confirm'))
    return { status: 201, body: { message: 'payment 17 recorded', ...confirmed, id: 1 } };
  if (c.method === 'POST' && c.path.endsWith('/ignore'))
    return { status: 200, body: { message: 'entry 1 ignored', ...entry, state: 'ignored' } };
  return undefined;
};
const harness = (o: { role?: string; lang?: 'de' | 'en'; api?: FakeApi } = {}) =>
  pageHarness({ register: registerBankStatementPages, api: o.api ?? api, role: o.role, lang: o.lang });

async function upload(url: string, file: { name: string; bytes: Buffer } | undefined, csrf = TEST_CSRF) {
  const form = new FormData();
  form.append('csrf', csrf);
  form.append('idem', 'idem-upload-0001');
  if (file) form.append('file', new Blob([file.bytes], { type: 'text/xml' }), file.name);
  const res = await fetch(`${url}/app/bank-statements`, { method: 'POST', body: form, redirect: 'manual' });
  return { status: res.status, html: await res.text(), location: res.headers.get('location') };
}

describe('bank statement pages', () => {
  it('the fixtures are shaped as the API answers', () => {
    expect(BankStatementDetail.safeParse(detail).error).toBeUndefined();
    expect(InvoicePage.safeParse({ invoices: [invoice], total: 1, page: 1, limit: 20, next_cursor: null }).error).toBeUndefined();
  });

  it('lists the statements with the API paging and offers the upload to an owner', async () => {
    const h = await harness();
    try {
      const page = await h.get('/app/bank-statements?page=2');
      expect(page.status).toBe(200);
      expect(h.calls[0]!.path).toBe('/bank-statements/?page=2&limit=25');
      expect(page.html).toContain('camt053_2026-11-26.xml');
      expect(page.html).toContain('DE44 5001 0517 5407 3249 31');
      expect(page.html).toContain('enctype="multipart/form-data"');
      expect(page.html).toContain('href="/app/bank-statements/3"');
      expect(page.html).toContain('Page 2 of 3');
      expect(page.html).toContain('href="/app/bank-statements?page=3"');
    } finally {
      await h.close();
    }
  });

  it('bounds the page parameter and shows an empty state', async () => {
    const h = await harness({ lang: 'de', api: () => ({ status: 200, body: { bank_statements: [], total: 0, page: 1, limit: 25 } }) });
    try {
      const page = await h.get('/app/bank-statements?page=1%26limit%3D1000&state=x');
      expect(h.calls[0]!.path).toBe('/bank-statements/?page=1&limit=25');
      expect(page.html).toContain('Noch keine Kontoauszüge');
    } finally {
      await h.close();
    }
  });

  it('forwards an upload as the one file of a multipart form with its name and the idempotency key, then shows the statement', async () => {
    const h = await harness();
    try {
      const xml = Buffer.from('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"/>');
      const done = await upload(h.url, { name: 'auszug november.xml', bytes: xml });
      expect(done.status).toBe(303);
      expect(done.location).toBe('/app/bank-statements/3');
      expect(h.takeFlash()?.text).toBe('The bank statement was imported: 3 lines, 2 incoming payments, 2 with a match proposal.');
      const post = h.calls.find((c) => c.method === 'POST')!;
      expect(post.path).toBe('/bank-statements/');
      expect(post.idempotencyKey).toBe('idem-upload-0001');
      const sent = (post.body as Buffer).toString('utf8');
      expect(sent).toContain('name="file"; filename="auszug november.xml"');
      expect(sent).toContain('camt.053.001.08');
      expect(sent).not.toContain(TEST_CSRF);
    } finally {
      await h.close();
    }
  });

  it('says in German what the API refused in an upload, and asks for a file when none was chosen', async () => {
    const h = await harness({
      lang: 'de',
      api: (c) =>
        c.method === 'POST'
          ? { status: 400, body: { code: 'XML_DTD_FORBIDDEN', detail: 'DTDs are refused' } }
          : { status: 200, body: { bank_statements: [], total: 0, page: 1, limit: 25 } },
    });
    try {
      const refused = await upload(h.url, { name: 'x.xml', bytes: Buffer.from('<!DOCTYPE x><x/>') });
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('Die Datei enthält eine DTD');
      const none = await upload(h.url, undefined);
      expect(none.status).toBe(400);
      expect(none.html).toContain('Bitte wählen Sie eine camt.053-Datei aus.');
      expect(h.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('refuses an upload without the CSRF token, and a viewer’s, without calling the API', async () => {
    const h = await harness();
    try {
      const forged = await upload(h.url, { name: 'x.xml', bytes: Buffer.from('<x/>') }, 'wrong-token');
      expect(forged.status).toBe(403);
    } finally {
      await h.close();
    }
    const v = await harness({ role: 'viewer', lang: 'de' });
    try {
      expect((await v.get('/app/bank-statements')).html).not.toContain('enctype="multipart/form-data"');
      const refused = await upload(v.url, { name: 'x.xml', bytes: Buffer.from('<x/>') });
      expect(refused.status).toBe(403);
      expect(refused.html).toContain('Ihre Rolle darf das nicht');
      expect(v.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    } finally {
      await v.close();
    }
  });

  it('shows a statement’s lines with the proposals, their confidence and reasons in German', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const page = await h.get('/app/bank-statements/3?state=open&page=1');
      expect(page.status).toBe(200);
      expect(h.calls[0]!.path).toBe('/bank-statements/3?page=1&limit=50&state=open');
      expect(page.html).toContain('119,00\u00a0€');
      expect(page.html).toContain('href="/app/invoices/42"');
      expect(page.html).toContain('95\u00a0%');
      expect(page.html).toContain('Rechnungsnummer im Verwendungszweck; Betrag = offener Betrag');
      expect(page.html).toContain('Teilzahlung');
      expect(page.html).toContain('action="/app/bank-statements/3/entries/1/confirm"');
      expect(page.html).toContain('action="/app/bank-statements/3/entries/1/ignore"');
      expect(page.html).toContain('href="/app/bank-statements/3/entries/1/correct"');
      expect(page.html).toContain('Kontoführung November');
      // the confirmed line: its payment, no action
      expect(page.html).not.toContain('/entries/3/confirm');
      expect(page.html).toContain('Gebucht: 119,00\u00a0€ auf Rechnung RE-2026-0042');
    } finally {
      await h.close();
    }
  });

  it('passes only a known state filter on', async () => {
    const h = await harness();
    try {
      await h.get('/app/bank-statements/3?state=open%26limit%3D1000');
      expect(h.calls[0]!.path).toBe('/bank-statements/3?page=1&limit=50');
    } finally {
      await h.close();
    }
  });

  it('confirms a proposal with its invoice and the idempotency key', async () => {
    const h = await harness();
    try {
      const done = await h.post('/app/bank-statements/3/entries/1/confirm', { invoice_id: '43', idem: 'idem-confirm-0001' });
      expect(done.status).toBe(303);
      expect(done.location).toBe('/app/bank-statements/3#entry-1');
      const post = h.calls.find((c) => c.method === 'POST')!;
      expect(post.path).toBe('/bank-statements/3/entries/1/confirm');
      expect(post.body).toEqual({ invoice_id: 43 });
      expect(post.idempotencyKey).toBe('idem-confirm-0001');
      expect(h.takeFlash()?.text).toBe('The payment was booked on invoice RE-2026-0042 (€119.00).');
    } finally {
      await h.close();
    }
  });

  it('books a correction: another invoice, a German amount and date', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const form = await h.get('/app/bank-statements/3/entries/1/correct?q=RE-2026');
      expect(form.status).toBe(200);
      expect(h.calls[0]!.path).toBe('/bank-statements/3?page=1&limit=1');
      expect(h.calls[1]!.path).toBe('/invoice/?open=true&document_type=INVOICE&limit=20&q=RE-2026');
      expect(form.html).toContain('value="44"');
      expect(form.html).toContain('RE-2026-0044');
      await h.post('/app/bank-statements/3/entries/1/confirm', {
        invoice_id: '44',
        amount: '1.234,5',
        date: '26.11.2026',
        q: '',
        idem: 'idem-confirm-0002',
      });
      const post = h.calls.find((c) => c.method === 'POST')!;
      expect(post.body).toEqual({ invoice_id: 44, amount: '1234.50', date: '2026-11-26' });
    } finally {
      await h.close();
    }
  });

  it('answers a bad amount or date on the correction form without calling the API', async () => {
    const h = await harness({ lang: 'de' });
    try {
      const bad = await h.post('/app/bank-statements/3/entries/1/confirm', { invoice_id: '44', amount: '12abc', date: '', q: '' });
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('höchstens zwei Nachkommastellen');
      expect(bad.html).toContain('value="12abc"');
      const badDate = await h.post('/app/bank-statements/3/entries/1/confirm', { invoice_id: '44', amount: '', date: '31.02.2026', q: '' });
      expect(badDate.html).toContain('TT.MM.JJJJ');
      const noInvoice = await h.post('/app/bank-statements/3/entries/1/confirm', { amount: '10', q: '' });
      expect(noInvoice.html).toContain('Bitte wählen Sie eine Rechnung aus.');
      expect(h.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    } finally {
      await h.close();
    }
  });

  it('shows an API conflict translated (confirm) and ignores a line', async () => {
    const h = await harness({
      lang: 'de',
      api: (c) =>
        c.path.endsWith('/confirm')
          ? { status: 409, body: { code: 'BANK_AMOUNT_EXCEEDS_CREDIT', detail: 'the amount exceeds the credit' } }
          : api(c),
    });
    try {
      const refused = await h.post('/app/bank-statements/3/entries/1/confirm', { invoice_id: '42' });
      expect(refused.status).toBe(303);
      expect(h.takeFlash()).toEqual({ kind: 'error', text: 'Der Betrag ist höher als die Gutschrift.' });
      const corrected = await h.post('/app/bank-statements/3/entries/1/confirm', { invoice_id: '42', amount: '500', date: '', q: '' });
      expect(corrected.status).toBe(409);
      expect(corrected.html).toContain('Der Betrag ist höher als die Gutschrift.');
      const ignored = await h.post('/app/bank-statements/3/entries/1/ignore', {});
      expect(ignored.status).toBe(303);
      expect(h.calls.at(-1)!.path).toBe('/bank-statements/3/entries/1/ignore');
      expect(h.takeFlash()?.text).toBe('Die Buchung aus Zeile 1 wird ignoriert.');
    } finally {
      await h.close();
    }
  });

  it('lets a member upload, confirm and ignore (invoices:write)', async () => {
    const h = await harness({ role: 'member' });
    try {
      expect((await h.get('/app/bank-statements')).html).toContain('enctype="multipart/form-data"');
      const page = await h.get('/app/bank-statements/3');
      expect(page.html).toContain('action="/app/bank-statements/3/entries/1/confirm"');
      expect((await h.post('/app/bank-statements/3/entries/1/ignore', {})).status).toBe(303);
    } finally {
      await h.close();
    }
  });

  it('shows a viewer everything but no action, and refuses a forged confirm in German without calling the API', async () => {
    const h = await harness({ role: 'viewer', lang: 'de' });
    try {
      const page = await h.get('/app/bank-statements/3');
      expect(page.html).toContain('RE-2026-0042');
      expect(page.html).not.toContain('/confirm"');
      expect(page.html).not.toContain('/ignore"');
      expect(page.html).not.toContain('/correct"');
      for (const path of ['/app/bank-statements/3/entries/1/confirm', '/app/bank-statements/3/entries/1/ignore']) {
        const forged = await h.post(path, { invoice_id: '42' });
        expect(forged.status).toBe(403);
        expect(forged.html).toContain('Ihre Rolle darf das nicht');
      }
      expect((await h.get('/app/bank-statements/3/entries/1/correct')).status).toBe(403);
      expect(h.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    } finally {
      await h.close();
    }
  });

  it('answers hostile ids with a 404 page without calling the API, and escapes what the bank wrote', async () => {
    const h = await harness({
      api: (c) =>
        c.method === 'GET' && c.path.startsWith('/bank-statements/3?')
          ? {
              status: 200,
              body: {
                ...detail,
                entries: [{ ...entry, payer_name: '<script>alert(1)</script>', remittance_information: ['<img src=x onerror=alert(1)>'] }],
              },
            }
          : api(c),
    });
    try {
      for (const path of [
        '/app/bank-statements/..%2Fx',
        '/app/bank-statements/%2e%2e%2f3',
        '/app/bank-statements/3abc',
        '/app/bank-statements/0',
      ]) {
        const res = await h.get(path);
        expect(res.status).toBe(404);
      }
      expect((await h.post('/app/bank-statements/3/entries/..%2F1/confirm', {})).status).toBe(404);
      expect((await h.get('/app/bank-statements/3/entries/1%3Fx/correct')).status).toBe(404);
      expect(h.calls).toHaveLength(0);
      const page = await h.get('/app/bank-statements/3');
      expect(page.html).not.toContain('<script>alert');
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.html).not.toContain('<img src=x');
    } finally {
      await h.close();
    }
  });
});
