import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness } from '../../testing/page-harness';
import { page as logPage } from './fixtures';
import { registerRequestLogPages } from './request-log.pages';

jest.setTimeout(60_000);

(haveChromium ? describe : describe.skip)('request log page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en'],
    ['viewer', 'de'],
  ] as const)('as %s in %s: no sideways scrolling at 1280/390/360 px, no serious axe-core violation', async (role, lang) => {
    const h = await pageHarness({ register: registerRequestLogPages, role, lang, api: () => ({ status: 200, body: logPage }) });
    const page = await browser.newPage();
    try {
      await lookAt(page, `${h.url}/app/request-log?status=4xx&cursor=1764412600000-0`, `web-request-log-${role}-${lang}`);
    } finally {
      await page.close();
      await h.close();
    }
  });
});
