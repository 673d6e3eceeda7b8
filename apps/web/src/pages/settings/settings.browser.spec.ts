import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness } from '../../testing/page-harness';
import { registerSettingsPages } from './settings.pages';
import { JOB, settingsApi } from './fixtures';
import sharp from 'sharp';

jest.setTimeout(120_000);
/** A letterhead-sized logo (what account-service stores: at most 709 x 260). */
const logo = () =>
  sharp({ create: { width: 480, height: 160, channels: 3, background: { r: 11, g: 87, b: 208 } } })
    .composite([
      {
        input: Buffer.from('<svg width="480" height="160"><rect x="20" y="20" width="120" height="120" fill="#fff"/></svg>'),
        top: 0,
        left: 0,
      },
    ])
    .png()
    .toBuffer();
const PAGES = [
  ['/app/settings', 'profile'],
  ['/app/settings/bank-accounts', 'bank-accounts'],
  ['/app/settings/bank-accounts/1', 'bank-account'],
  ['/app/settings/payment-terms', 'payment-terms'],
  ['/app/settings/payment-terms/2', 'payment-term'],
  ['/app/settings/numbering', 'numbering'],
  ['/app/settings/email-texts', 'email-texts'],
  ['/app/settings/datev', 'datev'],
  [`/app/settings/datev/jobs/${JOB}`, 'datev-job'],
  ['/app/settings/datev/accounts', 'datev-accounts'],
  ['/app/settings/bank-accounts/1/delete', 'bank-account-delete'],
] as const;

(haveChromium ? describe : describe.skip)('settings pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en'],
    ['viewer', 'de'],
  ] as const)('as %s in %s: no sideways scrolling at 1280/390/360 px, no serious axe-core violation', async (role, lang) => {
    let gateway = '';
    const PNG = await logo();
    const h = await pageHarness({
      register: (r, k) => {
        gateway = k.deps.gatewayUrl;
        registerSettingsPages(r, k);
      },
      role,
      lang,
      api: (c) => {
        if (c.path === '/company/logo')
          return {
            status: 200,
            body: {
              url: `${gateway}/store/logo.png`,
              content_type: 'image/png',
              width: 1,
              height: 1,
              size: PNG.length,
              sha256: 'ab',
              uploaded_at: '2026-11-29T10:00:00.000Z',
              expires_in: 300,
            },
          };
        if (c.path === '/store/logo.png') return { status: 200, raw: PNG, contentType: 'image/png' };
        return settingsApi(c);
      },
    });
    const page = await browser.newPage();
    try {
      for (const [path, name] of PAGES) {
        if (role === 'viewer' && (path.endsWith('/delete') || path.endsWith('/accounts'))) continue;
        await lookAt(page, `${h.url}${path}`, `web-settings-${name}-${role}-${lang}`);
      }
    } finally {
      await page.close();
      await h.close();
    }
  });
});
