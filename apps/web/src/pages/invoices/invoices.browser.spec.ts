import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness } from '../../testing/page-harness';
import { invoiceApi, invoicePage } from './invoice-fixtures';
import { registerInvoicePages } from './invoices.pages';

jest.setTimeout(120_000);

/** The list with a full page of invoices, the detail of a finalized invoice with 20 positions, a draft and each form. */
const PAGES: [string, string][] = [
  ['list', '/app/invoices'],
  ['list-filtered', '/app/invoices?q=M%C3%BCller&status=OPEN&customer_id=7&overdue=true'],
  ['detail', '/app/invoices/42'],
  ['draft', '/app/invoices/43'],
];
const FORMS: [string, string][] = [
  ['finalize', '/app/invoices/43/finalize'],
  ['send', '/app/invoices/42/send'],
  ['payment', '/app/invoices/42/payment'],
  ['credit-note', '/app/invoices/42/credit-note'],
  ['cancel', '/app/invoices/43/cancel'],
];

(haveChromium ? describe : describe.skip)('invoice pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en', [...PAGES, ...FORMS]],
    ['viewer', 'de', PAGES],
    [
      'member',
      'de',
      [
        ['detail', '/app/invoices/42'],
        ['payment', '/app/invoices/42/payment'],
      ],
    ],
  ] as const)('as %s in %s: no sideways scrolling at 1280/390/360 px, no serious axe-core violation', async (role, lang, pages) => {
    const h = await pageHarness({
      register: registerInvoicePages,
      role,
      lang,
      api: invoiceApi((c) => (c.path.startsWith('/invoice/?limit') ? { status: 200, body: invoicePage(25) } : undefined)),
    });
    const page = await browser.newPage();
    try {
      for (const [name, url] of pages) await lookAt(page, `${h.url}${url}`, `web-invoices-${name}-${role}-${lang}`);
    } finally {
      await page.close();
      await h.close();
    }
  });
});
