import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness } from '../../testing/page-harness';
import { registerPasswordResetPages } from './password-reset.pages';

jest.setTimeout(60_000);

(haveChromium ? describe : describe.skip)('password reset pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each(['en', 'de'] as const)('in %s: no sideways scrolling at 1280/390/360 px, no serious axe-core violation', async (lang) => {
    const h = await pageHarness({ register: registerPasswordResetPages, lang, api: () => ({ status: 202 }) });
    const page = await browser.newPage();
    try {
      await lookAt(page, `${h.url}/app/forgot-password`, `web-forgot-password-${lang}`);
      await lookAt(page, `${h.url}/app/reset-password#token=${'T'.repeat(43)}`, `web-reset-password-${lang}`);
      // the page's script took the token from the fragment into the form
      expect(await page.inputValue('#token')).toBe('T'.repeat(43));
    } finally {
      await page.close();
      await h.close();
    }
  });
});
