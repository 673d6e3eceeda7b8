import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { deleteRedisKeys, TEST_IDENTITY_KEY } from '@inv/testing';
import { gatewayConfig } from '../config';
import { createGateway } from '../gateway';

jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = resolve(__dirname, '../../../../test-artifacts');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium)
  console.warn(
    `\n!!! ${CHROMIUM} not found: the API reference page browser test is SKIPPED (apt-get install chromium; .ci/run installs it) !!!\n`,
  );

/** The reference page in a real browser: loads offline with no failed request, shows finalize and its 402. */
(haveChromium ? describe : describe.skip)('API reference page in headless Chromium', () => {
  let gateway: Awaited<ReturnType<typeof createGateway>>;
  let browser: Browser;
  let base: string;
  const redisPrefix = `t-docs-${Date.now()}:`;

  beforeAll(async () => {
    gateway = await createGateway(
      gatewayConfig.parse({
        PORT: '0',
        LOG_LEVEL: 'silent',
        IDENTITY_SIGNING_KEYS: TEST_IDENTITY_KEY,
        REDIS_PREFIX: redisPrefix,
        ACCOUNT_URL: 'http://127.0.0.1:1',
        CUSTOMER_URL: 'http://127.0.0.1:1',
        INVOICE_URL: 'http://127.0.0.1:1',
        DOCUMENT_URL: 'http://127.0.0.1:1',
        EXPORT_URL: 'http://127.0.0.1:1',
        QUOTA_URL: 'http://127.0.0.1:1',
      }),
    );
    base = (await gateway.start()).url;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await deleteRedisKeys(redisPrefix);
  });

  it('renders the document with navigation, the finalize operation and its 402 answer, loading nothing from elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const failed: string[] = [];
    const foreign: string[] = [];
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreign.push(r.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/api/v1/docs`, { waitUntil: 'networkidle' });
    // navigation by resource: open the Invoices tag, then the finalize operation
    await page.getByText('Invoices', { exact: true }).first().click();
    const finalize = page.getByText('Finalize: enqueue PDF and e-invoice generation').first();
    await finalize.waitFor({ timeout: 30_000 });
    await finalize.click();
    await page.getByText('monthly quota used up (INVOICE_LIMIT_REACHED)').first().waitFor({ timeout: 15_000 });
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: resolve(ARTIFACTS, 'api-reference.png') });
    expect({ failed, foreign, errors }).toEqual({ failed: [], foreign: [], errors: [] });
  });
});
