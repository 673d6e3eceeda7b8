import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium } from '../testing/browser';
import { pageHarness } from '../testing/page-harness';
import { invoiceApi } from './invoices/invoice-fixtures';
import { registerInvoicePages } from './invoices/invoices.pages';

jest.setTimeout(60_000);

/**
 * The dashboard with the keyboard alone: the skip link comes first and leads to the content, the search form is
 * reached and sent with Tab and Enter, a result opens with Enter, and every focused element shows where focus is.
 */
(haveChromium ? describe : describe.skip)('the dashboard with the keyboard alone', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it('skips to the content, searches invoices and opens one without a mouse', async () => {
    const h = await pageHarness({ register: registerInvoicePages, lang: 'de', api: invoiceApi() });
    const page = await browser.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${h.url}/app/invoices`);
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Zum Inhalt springen');
      // the focused element is outlined (the page's :focus-visible rule)
      expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
      await page.keyboard.press('Enter');
      expect(new URL(page.url()).hash).toBe('#main');
      // Tab from the content's start reaches the search field before anything else of the form
      for (let i = 0; i < 20 && (await page.evaluate('document.activeElement.id')) !== 'f-search'; i++) await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.id')).toBe('f-search');
      await page.keyboard.type('RE-2026-00042');
      await Promise.all([page.waitForURL(/q=RE-2026-00042/), page.keyboard.press('Enter')]);
      expect(h.calls.some((c) => c.path.startsWith('/invoice/?') && c.path.includes('q=RE-2026-00042'))).toBe(true);
      // Tab to the first invoice's link and open it with Enter
      for (let i = 0; i < 100 && !String(await page.evaluate('document.activeElement.href || ""')).match(/\/app\/invoices\/\d+$/); i++) {
        await page.keyboard.press('Tab');
      }
      await Promise.all([page.waitForURL(/\/app\/invoices\/\d+$/), page.keyboard.press('Enter')]);
      expect(await page.locator('h1').textContent()).toMatch(/^Rechnung /);
    } finally {
      await page.close();
      await h.close();
    }
  });
});
