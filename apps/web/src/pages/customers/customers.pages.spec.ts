import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { registerCustomerPages } from './customers.pages';
import { addresses, customer, invoiceRow, overview, statement } from './fixtures';

const api: FakeApi = (c) => {
  const path = c.path.split('?')[0];
  if (c.method === 'GET' && path === '/customer/')
    return { status: 200, body: [customer(), customer({ id: 8, customer_number: 10008, is_active: false, vat_id: null })] };
  if (c.method === 'GET' && path === '/customer/7') return { status: 200, body: customer({ addresses }) };
  if (path === '/customer/7/financial-overview') return { status: 200, body: overview };
  if (path === '/invoice/')
    return { status: 200, body: { invoices: [0, 1, 2, 4].map(invoiceRow), total: 14, page: 1, limit: 10, next_cursor: null } };
  if (path === '/customer/7/vat-check') return { status: 200, body: { ...customer().vat_check, status: 'pending', check_requested: true } };
  if (path === '/customer/7/statement') return { status: 200, body: statement };
  if (path === '/customer/7/statement/pdf')
    return {
      status: 200,
      body: { url: 'https://files.example/statement.pdf?X-Amz-Signature=abc', filename: 'kontoauszug.pdf', expires_in: 300 },
    };
  return undefined;
};

describe('customer pages', () => {
  it('lists customers with the filters passed on, bounded and whitelisted, and pages with the total', async () => {
    const h = await pageHarness({
      register: registerCustomerPages,
      api: (c) => (c.path.startsWith('/customer/?') ? { status: 200, body: [customer()], headers: { 'x-total-count': '60' } } : undefined),
    });
    try {
      const page = await h.get('/app/customers?q=M%C3%BCller&contact_type=B2B&is_active=true&email=a%40b.de&evil=1&page=2');
      expect(page.status).toBe(200);
      const call = h.calls[0]!;
      const q = new URLSearchParams(call.path.split('?')[1]);
      expect(Object.fromEntries(q)).toEqual({
        q: 'Müller',
        email: 'a@b.de',
        contact_type: 'B2B',
        is_active: 'true',
        page: '2',
        limit: '25',
      });
      expect(page.html).toContain('href="/app/customers/7"');
      expect(page.html).toContain('&lt;script&gt;');
      expect(page.html).toContain('Page 2 of 3');
      expect(page.html).toContain(
        'href="/app/customers?q=M%C3%BCller&amp;email=a%40b.de&amp;contact_type=B2B&amp;is_active=true&amp;page=3"',
      );
      expect(page.html).not.toContain('<script>alert');
      // a filter outside the whitelist or value set is dropped
      await h.get('/app/customers?contact_type=X&is_active=maybe&page=-1');
      expect(h.calls[1]!.path).toBe('/customer/?page=1&limit=25');
      // a search cannot smuggle parameters into the API's query
      await h.get('/app/customers?q=a%26limit%3D1000%23');
      expect(h.calls[2]!.path).toBe('/customer/?q=a%26limit%3D1000%23&page=1&limit=25');
    } finally {
      await h.close();
    }
  });

  it('shows an empty state and the API refusal', async () => {
    let answer: { status: number; body: unknown } = { status: 200, body: [] };
    const h = await pageHarness({ register: registerCustomerPages, lang: 'de', api: () => answer });
    try {
      expect((await h.get('/app/customers')).html).toContain('Keine passenden Kunden.');
      answer = { status: 400, body: { code: 'VALIDATION_ERROR', detail: 'q: too long' } };
      const refused = await h.get('/app/customers?q=x');
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('msg error');
      answer = { status: 503, body: { code: 'SERVICE_UNAVAILABLE' } };
      expect((await h.get('/app/customers')).status).toBe(502);
    } finally {
      await h.close();
    }
  });

  it('shows a customer: master data, VAT check with its date, addresses, overview and invoices linking to the invoice pages', async () => {
    const h = await pageHarness({ register: registerCustomerPages, api });
    try {
      const page = await h.get('/app/customers/7');
      expect(page.status).toBe(200);
      expect(page.html).toContain('ATU12345678');
      expect(page.html).toContain('20 Nov 2026');
      expect(page.html).toContain('WAPIAAAAYxyz123');
      expect(page.html).toContain('Mariahilfer Straße 123');
      expect(page.html).toContain('€12,345.67');
      expect(page.html).toContain('href="/app/invoices/100"');
      expect(page.html).toContain('href="/app/customers/7/statement"');
      expect(page.html).toContain('action="/app/customers/7/vat-check"');
      expect(page.html).toContain('ipage=2');
      expect(h.calls.map((c) => c.path)).toContain('/invoice/?customer_id=7&page=1&limit=10');
    } finally {
      await h.close();
    }
  });

  it('checks the VAT ID again and says so after the redirect', async () => {
    const h = await pageHarness({ register: registerCustomerPages, api });
    try {
      const posted = await h.post('/app/customers/7/vat-check', {});
      expect(posted.status).toBe(303);
      expect(posted.location).toBe('/app/customers/7');
      expect(h.calls.find((c) => c.path === '/customer/7/vat-check')?.method).toBe('GET');
      expect(h.takeFlash()?.text).toContain('requested');
    } finally {
      await h.close();
    }
  });

  it('a viewer sees no check button, and a forged POST is a German 403 without an API call', async () => {
    const h = await pageHarness({ register: registerCustomerPages, role: 'viewer', lang: 'de', api });
    try {
      const page = await h.get('/app/customers/7');
      expect(page.html).not.toContain('/vat-check"');
      expect(page.html).toContain('Rechnungsadresse');
      expect(page.html).toContain('12.345,67');
      const before = h.calls.length;
      const posted = await h.post('/app/customers/7/vat-check', {});
      expect(posted.status).toBe(403);
      expect(posted.html).toContain('Ihre Rolle darf das nicht');
      expect(h.calls).toHaveLength(before);
    } finally {
      await h.close();
    }
  });

  it('hostile ids are a 404 page without an API call', async () => {
    const h = await pageHarness({ register: registerCustomerPages, api });
    try {
      for (const bad of ['..%2fx', '%2e%2e', '7%3Fx%3D1', '0', '1e3', '<script>']) {
        const page = await h.get(`/app/customers/${bad}`);
        expect(page.status).toBe(404);
      }
      expect((await h.get('/app/customers/..%2f..%2fmembers/statement')).status).toBe(404);
      expect((await h.post('/app/customers/%2e%2e/vat-check', {})).status).toBe(404);
      expect(h.calls).toHaveLength(0);
    } finally {
      await h.close();
    }
  });

  it('shows the statement for a period and downloads its PDF through the presigned link', async () => {
    const h = await pageHarness({ register: registerCustomerPages, lang: 'de', api });
    try {
      const page = await h.get('/app/customers/7/statement?from=2026-10-01&to=2026-11-30');
      expect(page.status).toBe(200);
      expect(h.calls.map((c) => c.path)).toContain('/customer/7/statement?from=2026-10-01&to=2026-11-30');
      expect(page.html).toContain('Zahlungseingang');
      expect(page.html).toContain('Skonto');
      expect(page.html).toContain('Mahngebühr');
      expect(page.html).toContain('386,00');
      // the customer's language (German) first; links, since a form redirected to the object store is stopped by form-action
      expect(page.html).toContain(
        'href="/app/customers/7/statement.pdf?from=2026-10-01&amp;to=2026-11-30&amp;language=de">PDF herunterladen (Deutsch)',
      );
      expect(page.html).toContain('language=en">PDF herunterladen (Englisch)');
      const pdf = await h.get('/app/customers/7/statement.pdf?from=2026-10-01&to=2026-11-30&language=en');
      expect(pdf.status).toBe(303);
      expect(pdf.location).toBe('https://files.example/statement.pdf?X-Amz-Signature=abc');
      expect(h.calls.map((c) => c.path)).toContain('/customer/7/statement/pdf?from=2026-10-01&to=2026-11-30&language=en');
    } finally {
      await h.close();
    }
  });

  it('a malformed period is a 400 without an API call for the statement; an API refusal of the PDF is shown', async () => {
    const h = await pageHarness({
      register: registerCustomerPages,
      api: (c) =>
        c.path.startsWith('/customer/7/statement/pdf')
          ? { status: 409, body: { code: 'COMPANY_PROFILE_MISSING', detail: 'the company profile is missing' } }
          : api(c),
    });
    try {
      const bad = await h.get('/app/customers/7/statement?from=2026-12-01&to=2026-01-01');
      expect(bad.status).toBe(400);
      expect(h.calls.some((c) => c.path.includes('/statement'))).toBe(false);
      expect((await h.get('/app/customers/7/statement.pdf?from=x%26limit%3D1')).status).toBe(400);
      const refused = await h.get('/app/customers/7/statement.pdf');
      expect(refused.status).toBe(409);
      expect(refused.html).toContain('msg error');
    } finally {
      await h.close();
    }
  });
});
