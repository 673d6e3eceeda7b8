import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { registerReceivedPages } from './received.pages';
import { inboundDetail, inboundDoc, supplier } from './fixtures';

const link = (name: string) => ({
  url: `https://files.example/${name}?X-Amz-Signature=abc`,
  filename: name,
  content_type: 'application/pdf',
  expires_in: 300,
});
const api: FakeApi = (c) => {
  const path = c.path.split('?')[0];
  if (c.method === 'GET' && path === '/inbound/')
    return {
      status: 200,
      body: [
        inboundDoc(),
        inboundDoc({ id: 8, status: 'PROCESSING', valid: false, error_count: 0, number: undefined, seller_name: undefined }),
      ],
      headers: { 'x-total-count': '2' },
    };
  if (c.method === 'GET' && path === '/inbound/7') return { status: 200, body: inboundDetail() };
  if (c.method === 'GET' && path === '/inbound/9')
    return { status: 200, body: inboundDetail({ id: 9, supplier_id: 3, iban_differs: true, duplicate_of: 7 }) };
  if (path === '/suppliers/3') return { status: 200, body: supplier };
  if (path === '/inbound/7/pdf') return { status: 200, body: link('eingangsrechnung-RE-2026-000123.pdf') };
  if (path === '/inbound/7/original') return { status: 200, body: { ...link('original.xml'), content_type: 'application/xml' } };
  if (path === '/inbound/7/attachments/1') return { status: 200, body: link('stundennachweis.pdf') };
  if (c.method === 'POST' && path === '/suppliers/')
    return { status: 201, body: { ...supplier, id: 4, name: (c.body as { name: string }).name } };
  if (c.method === 'DELETE' && path === '/inbound/7') return { status: 200, body: { message: 'inbound document 7 deleted' } };
  return undefined;
};

describe('received document pages', () => {
  it('lists the inbox with status, error count and the filters passed on, whitelisted', async () => {
    const h = await pageHarness({ register: registerReceivedPages, api });
    try {
      const page = await h.get('/app/received?status=RECEIVED&valid=false&seller_vat_id=de%20123456789&page=1&limit=1000&x=y');
      expect(page.status).toBe(200);
      expect(Object.fromEntries(new URLSearchParams(h.calls[0]!.path.split('?')[1]))).toEqual({
        status: 'RECEIVED',
        valid: 'false',
        seller_vat_id: 'de 123456789',
        page: '1',
        limit: '25',
      });
      expect(page.html).toContain('href="/app/received/7"');
      expect(page.html).toContain('errors: 2');
      expect(page.html).toContain('being read');
      expect(page.html).toContain('€14,250.00');
      expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(page.html).not.toContain('<img src=x');
      await h.get('/app/received?status=DELETED&valid=1');
      expect(h.calls[1]!.path).toBe('/inbound/?page=1&limit=25');
    } finally {
      await h.close();
    }
  });

  it('a malformed VAT ID filter is a 400 page without an API call', async () => {
    const h = await pageHarness({ register: registerReceivedPages, lang: 'de', api });
    try {
      const page = await h.get('/app/received?seller_vat_id=%26limit%3D1');
      expect(page.status).toBe(400);
      expect(page.html).toContain('Ländercode');
      expect(h.calls).toHaveLength(0);
    } finally {
      await h.close();
    }
  });

  it('shows a document: findings with rule, severity and message, content, files and the add-supplier action', async () => {
    const h = await pageHarness({ register: registerReceivedPages, api });
    try {
      const page = await h.get('/app/received/7');
      expect(page.status).toBe(200);
      for (const s of ['BR-CO-15', 'BR-DE-15', 'INB-VAT-RATE', 'warning', 'Beratungsleistung Projektphase 3', 'DE75512108001245126199'])
        expect(page.html).toContain(s);
      expect(page.html).toContain('href="/app/received/7/view.pdf?language=de"');
      expect(page.html).toContain('href="/app/received/7/original"');
      expect(page.html).toContain('href="/app/received/7/attachments/1"');
      expect(page.html).toContain('not stored');
      expect(page.html).toContain('action="/app/received/7/supplier"');
      expect(page.html).toContain('href="/app/received/7/delete"');
      expect(page.html).not.toContain('<img src=x');
    } finally {
      await h.close();
    }
  });

  it('shows the matched supplier, the IBAN warning and the duplicate', async () => {
    const h = await pageHarness({ register: registerReceivedPages, lang: 'de', api });
    try {
      const page = await h.get('/app/received/9');
      expect(page.html).toContain('Bürobedarf Müller &amp; Partner GmbH');
      expect(page.html).toContain('Achtung: Das Dokument verlangt Zahlung auf eine IBAN');
      expect(page.html).toContain('href="/app/received/7"');
      expect(page.html).not.toContain('/supplier"');
      expect(page.html).toContain('Prüfhinweise');
    } finally {
      await h.close();
    }
  });

  it('downloads the view, the original and an attachment through the presigned links', async () => {
    const h = await pageHarness({ register: registerReceivedPages, api });
    try {
      const view = await h.get('/app/received/7/view.pdf?language=en');
      expect(view.status).toBe(303);
      expect(view.location).toContain('https://files.example/eingangsrechnung');
      expect(h.calls.map((c) => c.path)).toContain('/inbound/7/pdf?language=en');
      expect((await h.get('/app/received/7/original')).location).toContain('original.xml');
      expect((await h.get('/app/received/7/attachments/1')).location).toContain('stundennachweis.pdf');
      expect((await h.get('/app/received/7/view.pdf?language=%3Cx%3E')).status).toBe(303);
      expect(h.calls.map((c) => c.path)).toContain('/inbound/7/pdf?language=de');
      const missing = await h.get('/app/received/8/original');
      expect(missing.status).toBe(404);
    } finally {
      await h.close();
    }
  });

  it('a link that is not http(s) is not followed', async () => {
    const h = await pageHarness({
      register: registerReceivedPages,
      api: () => ({ status: 200, body: { url: 'javascript:alert(1)', filename: 'x', content_type: 'x', expires_in: 1 } }),
    });
    try {
      const page = await h.get('/app/received/7/original');
      expect(page.status).toBe(502);
      expect(page.location).toBeNull();
    } finally {
      await h.close();
    }
  });

  it('adds the seller to the supplier register with the idempotency key', async () => {
    const h = await pageHarness({ register: registerReceivedPages, api });
    try {
      const posted = await h.post('/app/received/7/supplier', { idem: 'idem-123' });
      expect(posted.status).toBe(303);
      expect(posted.location).toBe('/app/received/7');
      const call = h.calls.find((c) => c.method === 'POST')!;
      expect(call.path).toBe('/suppliers/');
      expect(call.idempotencyKey).toBe('idem-123');
      expect(call.body).toEqual({
        name: 'Bürobedarf Müller & Partner Gesellschaft für Organisationsberatung mbH',
        vat_id: 'DE123456789',
        peppol_id: '9930:DE123456789',
        ibans: ['DE75512108001245126199'],
      });
      expect(h.takeFlash()?.kind).toBe('ok');
    } finally {
      await h.close();
    }
  });

  it('asks before deleting, then deletes and returns to the inbox; an API refusal is shown translated', async () => {
    let refuse = false;
    const h = await pageHarness({
      register: registerReceivedPages,
      lang: 'de',
      api: (c) => (refuse && c.method === 'DELETE' ? { status: 409, body: { code: 'CONCURRENT_MODIFICATION', detail: 'x' } } : api(c)),
    });
    try {
      const confirm = await h.get('/app/received/7/delete');
      expect(confirm.status).toBe(200);
      expect(confirm.html).toContain('wirklich löschen');
      expect(h.calls.some((c) => c.method === 'DELETE')).toBe(false);
      const done = await h.post('/app/received/7/delete', {});
      expect(done.status).toBe(303);
      expect(done.location).toBe('/app/received');
      expect(h.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/inbound/7']);
      refuse = true;
      const refused = await h.post('/app/received/7/delete', {});
      expect(refused.status).toBe(409);
      expect(refused.html).toContain('Jemand hat');
    } finally {
      await h.close();
    }
  });

  it('a viewer sees no action, and forged POSTs are German 403s without an API call', async () => {
    const h = await pageHarness({ register: registerReceivedPages, role: 'viewer', lang: 'de', api });
    try {
      const page = await h.get('/app/received/7');
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('/delete"');
      expect(page.html).not.toContain('/supplier"');
      const before = h.calls.length;
      for (const path of ['/app/received/7/delete', '/app/received/7/supplier']) {
        const posted = await h.post(path, { idem: 'x' });
        expect(posted.status).toBe(403);
        expect(posted.html).toContain('Ihre Rolle darf das nicht');
      }
      expect((await h.get('/app/received/7/delete')).status).toBe(403);
      expect(h.calls).toHaveLength(before);
    } finally {
      await h.close();
    }
  });

  it('hostile ids are a 404 page without an API call', async () => {
    const h = await pageHarness({ register: registerReceivedPages, api });
    try {
      for (const bad of ['..%2fx', '%2e%2e', '7%3Flimit%3D1', '-1', '<script>'])
        expect((await h.get(`/app/received/${bad}`)).status).toBe(404);
      expect((await h.get('/app/received/7/attachments/..%2f..%2fpdf')).status).toBe(404);
      expect((await h.get('/app/received/7/attachments/0')).status).toBe(404);
      expect((await h.post('/app/received/%2e%2e/delete', {})).status).toBe(404);
      expect(h.calls).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});
