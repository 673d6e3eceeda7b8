import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { registerDeveloperPages } from './developers.pages';

type Harness = Awaited<ReturnType<typeof pageHarness>>;
const MAIL = '0b6f6d1e-7c7e-4b8e-9a55-2f1f1c7f9a10';
const testMail = {
  id: MAIL,
  subject_ref: 'invoice:42',
  from: 'Müller & Söhne <rechnung@mueller.example>',
  reply_to: 'buchhaltung@mueller.example',
  to: ['kunde@example.com'],
  cc: ['chef@example.com'],
  bcc: [],
  subject: 'Rechnung RE-2026-00042 <script>alert(1)</script>',
  text: 'Sehr geehrte Damen und Herren,\n\nanbei die Rechnung.\n<img src=x onerror=alert(1)>',
  attachments: [
    { filename: 'RE-2026-00042.pdf', content_type: 'application/pdf' },
    { filename: 'RE-2026-00042.xml', content_type: 'application/xml' },
  ],
  captured_at: '2026-11-29T10:15:00.000Z',
};
async function withPages(
  o: { mode?: 'live' | 'test'; lang?: 'de' | 'en'; role?: string; api?: FakeApi },
  run: (h: Harness) => Promise<void>,
) {
  const h = await pageHarness({
    register: registerDeveloperPages,
    mode: o.mode,
    lang: o.lang,
    role: o.role,
    api:
      o.api ??
      ((c) => {
        if (c.path.startsWith('/test-mails/?')) return { status: 200, body: { test_mails: [testMail], total: 60, page: 2, limit: 25 } };
        if (c.path === `/test-mails/${MAIL}`) return { status: 200, body: testMail };
        return undefined;
      }),
  });
  try {
    await run(h);
  } finally {
    await h.close();
  }
}

describe('developer pages', () => {
  it('links API keys, webhooks, the request log and test e-mails', async () => {
    await withPages({ lang: 'de' }, async (h) => {
      const page = await h.get('/app/developers');
      expect(page.status).toBe(200);
      for (const href of ['/app/keys', '/app/webhooks', '/app/request-log', '/app/test-mails'])
        expect(page.html).toContain(`<a href="${href}">`);
      expect(page.html).toContain('Test-E-Mails');
      expect(page.html).toMatch(/<a href="\/app\/developers" aria-current="page">Entwickler<\/a>/);
      expect(h.calls).toHaveLength(0);
    });
  });

  it('tells a live session where test e-mails are and offers the switch to the test data, without asking the API', async () => {
    await withPages({ mode: 'live', lang: 'de' }, async (h) => {
      for (const path of ['/app/test-mails', `/app/test-mails/${MAIL}`]) {
        const page = await h.get(path);
        expect(page.status).toBe(200);
        expect(page.html).toContain('Im Testmodus werden E-Mails nicht verschickt');
        expect(page.html).toMatch(
          /<form method="post" action="\/app\/mode"><input type="hidden" name="csrf" value="[^"]+"><input type="hidden" name="mode" value="test"><button type="submit">Testdaten ansehen<\/button>/,
        );
      }
      expect(h.calls).toHaveLength(0);
    });
  });

  it('lists the test e-mails of the test data page by page (escaped), the page number bounded', async () => {
    await withPages({ mode: 'test' }, async (h) => {
      const page = await h.get('/app/test-mails?page=2');
      expect(page.status).toBe(200);
      expect(h.calls[0]!.path).toBe('/test-mails/?page=2&limit=25');
      expect(page.html).toContain(`href="/app/test-mails/${MAIL}"`);
      expect(page.html).toContain('Rechnung RE-2026-00042 &lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page.html).not.toContain('<script>alert');
      expect(page.html).toContain('RE-2026-00042.pdf, RE-2026-00042.xml');
      expect(page.html).toContain('Page 2 of 3');
      expect(page.html).toContain('href="/app/test-mails?page=1"');
      expect(page.html).toContain('href="/app/test-mails?page=3"');
      for (const q of ['?page=-1', '?page=abc', '?page=1%26limit%3D1000', '?page[]=2', '?page=999999999'])
        await h.get(`/app/test-mails${q}`);
      expect(h.calls.slice(1).map((c) => c.path)).toEqual(Array(5).fill('/test-mails/?page=1&limit=25'));
    });
  });

  it('shows one test e-mail: from, to, cc, subject, the text pre-wrapped and escaped, the attachment names', async () => {
    await withPages({ mode: 'test', lang: 'de' }, async (h) => {
      const page = await h.get(`/app/test-mails/${MAIL}`);
      expect(page.status).toBe(200);
      expect(h.calls[0]!.path).toBe(`/test-mails/${MAIL}`);
      expect(page.html).toContain('Müller &amp; Söhne &lt;rechnung@mueller.example&gt;');
      expect(page.html).toContain('kunde@example.com');
      expect(page.html).toContain('chef@example.com');
      expect(page.html).toContain(
        '<pre class="mail">Sehr geehrte Damen und Herren,\n\nanbei die Rechnung.\n&lt;img src=x onerror=alert(1)&gt;</pre>',
      );
      expect(page.html).toContain('RE-2026-00042.xml');
      expect(page.html).not.toContain('>Bcc<');
    });
  });

  it('answers a hostile or unknown id with a 404 page (the hostile one without an API call)', async () => {
    await withPages({ mode: 'test', lang: 'de' }, async (h) => {
      for (const bad of ['..%2Fmembers', '%2e%2e%2Fx', 'x%3Fa=1', `${MAIL}x`]) {
        const page = await h.get(`/app/test-mails/${bad}`);
        expect(page.status).toBe(404);
        expect(page.html).toContain('Diese Test-E-Mail gibt es nicht');
      }
      expect(h.calls).toHaveLength(0);
      expect((await h.get('/app/test-mails/1b6f6d1e-7c7e-4b8e-9a55-2f1f1c7f9a10')).status).toBe(404);
      expect(h.calls).toHaveLength(1);
    });
  });

  it("shows the API's refusal in test mode in the page language", async () => {
    await withPages({ mode: 'test', lang: 'de', api: () => ({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } }) }, async (h) => {
      const page = await h.get('/app/test-mails');
      expect(page.status).toBe(502);
      expect(page.html).toContain('vorübergehend nicht erreichbar');
    });
  });
});
