import { pageHarness } from '../../testing/page-harness';
import { entry, page } from './fixtures';
import { registerRequestLogPages } from './request-log.pages';

describe('request log page', () => {
  it('shows the entries with status badges and offers older ones with the cursor', async () => {
    const h = await pageHarness({
      register: registerRequestLogPages,
      api: (c) => (c.path.startsWith('/request-log/') ? { status: 200, body: page } : undefined),
    });
    try {
      const got = await h.get('/app/request-log');
      expect(got.status).toBe(200);
      expect(h.calls[0]).toMatchObject({ method: 'GET', path: '/request-log/?limit=25' });
      expect(h.calls[0]!.authorization).toMatch(/^Bearer mt_/);
      expect(got.html).toContain('/invoice/42/finalize?wait=10');
      expect(got.html).toContain('<span class="badge bad">422</span>');
      expect(got.html).toContain('<span class="badge">200</span>');
      expect(got.html).toContain('<span class="badge off">302</span>');
      expect(got.html).toContain('1,184 ms');
      expect(got.html).toContain('5f0c7a52-9d1e-4c1b-8f7a-2b6a1f0e9c33');
      expect(got.html).toContain('order-1017-finalize');
      expect(got.html).toContain('key_7Hq2');
      expect(got.html).toContain('29/11/2026, 10:15:00 UTC');
      expect(got.html).toContain('href="/app/request-log?cursor=1764412497000-0"');
      expect(got.html).toContain('aria-current="page"');
    } finally {
      await h.close();
    }
  });

  it('passes the filters and the cursor on, and keeps the filters in the paging link', async () => {
    const h = await pageHarness({
      register: registerRequestLogPages,
      lang: 'de',
      role: 'viewer',
      api: () => ({ status: 200, body: { entries: [entry()], next_cursor: '1764412400000-3' } }),
    });
    try {
      const got = await h.get('/app/request-log?status=4XX&method=post&cursor=1764412500000-0');
      expect(got.status).toBe(200);
      expect(h.calls[0]!.path).toBe('/request-log/?status=4xx&method=POST&limit=25&cursor=1764412500000-0');
      expect(got.html).toContain('href="/app/request-log?status=4xx&amp;method=POST&amp;cursor=1764412400000-3"');
      expect(got.html).toContain('href="/app/request-log?status=4xx&amp;method=POST">Neueste Anfragen');
      expect(got.html).toContain('<option value="POST" selected>');
      expect(got.html).toContain('1.184 ms');
      expect(got.html).toContain('Anfrageprotokoll');
    } finally {
      await h.close();
    }
  });

  it('drops hostile filters and cursors before they reach the API and escapes what the log holds', async () => {
    const h = await pageHarness({
      register: registerRequestLogPages,
      api: () => ({
        status: 200,
        body: { entries: [entry({ path: '/x?<script>alert(1)</script>', idempotency_key: '"><img src=x>' })], next_cursor: '../x' },
      }),
    });
    try {
      const got = await h.get('/app/request-log?status=4xx%26limit%3D100&method=GET%26x=1&cursor=..%2F..%2Fx&limit=100');
      expect(h.calls[0]!.path).toBe('/request-log/?limit=25');
      expect(got.html).toContain('give a code like 404');
      expect(got.html).not.toContain('<script>alert');
      expect(got.html).toContain('&lt;script&gt;');
      expect(got.html).not.toContain('<img src=x>');
      expect(got.html).not.toContain('rel="next"');
    } finally {
      await h.close();
    }
  });

  it('shows an empty state, and the API refusal translated', async () => {
    let answer: { status: number; body: unknown } = { status: 200, body: { entries: [], next_cursor: null } };
    const h = await pageHarness({ register: registerRequestLogPages, lang: 'de', api: () => answer });
    try {
      expect((await h.get('/app/request-log?status=599')).html).toContain('Keine Anfragen gefunden.');
      answer = { status: 503, body: { code: 'SERVICE_UNAVAILABLE', detail: 'request log unavailable' } };
      const down = await h.get('/app/request-log');
      expect(down.status).toBe(502);
      expect(down.html).toContain('class="msg error"');
      answer = { status: 200, body: { entries: [{ id: 1 }], next_cursor: null } };
      expect((await h.get('/app/request-log')).status).toBe(502);
    } finally {
      await h.close();
    }
  });
});
