import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness } from '../../testing/page-harness';
import { registerDeveloperPages } from './developers.pages';

jest.setTimeout(90_000);
const MAIL = '0b6f6d1e-7c7e-4b8e-9a55-2f1f1c7f9a10';
const mail = (i: number) => ({
  id: i === 0 ? MAIL : `0b6f6d1e-7c7e-4b8e-9a55-2f1f1c7f9a${String(i).padStart(2, '0')}`,
  subject_ref: `invoice:${40 + i}`,
  from: 'Müller & Söhne Präzisionswerkzeuge GmbH <rechnungen@mueller-soehne-praezisionswerkzeuge.example>',
  reply_to: 'buchhaltung@mueller-soehne-praezisionswerkzeuge.example',
  to: ['einkauf.rechnungseingang@ein-sehr-langer-kundenname-fuer-schmale-bildschirme.example'],
  cc: ['geschaeftsfuehrung@example.com', 'controlling@example.com'],
  bcc: [],
  subject: `Rechnung RE-2026-000${40 + i} von Müller & Söhne Präzisionswerkzeuge und Industriebedarf GmbH & Co. KG`,
  text: `Sehr geehrte Damen und Herren,\n\nanbei erhalten Sie die Rechnung RE-2026-000${40 + i} über 12.345,67 €, fällig am 29.12.2026.\nEine sehr lange Zeile ohne Umbruch: ${'x'.repeat(200)}\n\nMit freundlichen Grüßen\nMüller & Söhne`,
  attachments: [
    { filename: `RE-2026-000${40 + i}.pdf`, content_type: 'application/pdf' },
    { filename: `RE-2026-000${40 + i}_xrechnung.xml`, content_type: 'application/xml' },
  ],
  captured_at: '2026-11-29T10:15:00.000Z',
});

(haveChromium ? describe : describe.skip)('developer pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en', 'test'],
    ['viewer', 'de', 'test'],
    ['viewer', 'de', 'live'],
  ] as const)('as %s in %s (%s data): no sideways scrolling, no serious axe-core violation', async (role, lang, mode) => {
    const h = await pageHarness({
      register: registerDeveloperPages,
      role,
      lang,
      mode,
      api: (c) => {
        if (c.path.startsWith('/test-mails/?'))
          return { status: 200, body: { test_mails: Array.from({ length: 12 }, (_, i) => mail(i)), total: 40, page: 1, limit: 25 } };
        if (c.path === `/test-mails/${MAIL}`) return { status: 200, body: mail(0) };
        return undefined;
      },
    });
    const page = await browser.newPage();
    try {
      await lookAt(page, `${h.url}/app/developers`, `web-developers-${role}-${lang}-${mode}`);
      await lookAt(page, `${h.url}/app/test-mails`, `web-test-mails-${role}-${lang}-${mode}`);
      await lookAt(page, `${h.url}/app/test-mails/${MAIL}`, `web-test-mail-${role}-${lang}-${mode}`);
    } finally {
      await page.close();
      await h.close();
    }
  });
});
