import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ERROR_CODES } from '@inv/contracts';
import { problem } from '@inv/service-kit';
import { deleteRedisKeys, TEST_IDENTITY_KEY } from '@inv/testing';
import { gatewayConfig } from '../config';
import { createGateway } from '../gateway';
import { problemSlug } from './problem-pages';

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

  /** Opens the reference and records what must not happen: failed requests, requests leaving the gateway, errors. */
  async function openReference(width: number) {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    const failed: string[] = [];
    const foreign: string[] = [];
    const errors: string[] = [];
    // every request is routed: anything not for the gateway on 127.0.0.1 is recorded and refused
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') return route.continue();
      foreign.push(url.href);
      return route.abort();
    });
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/api/v1/docs`, { waitUntil: 'networkidle' });
    await page.getByText('Invoicing API', { exact: false }).first().waitFor({ timeout: 30_000 });
    return { page, problems: () => ({ failed, foreign, errors }) };
  }

  /** Words of the description tables that the layout breaks across lines ("perm/issio/n"; a break after a hyphen is fine). */
  // runs in the page (a string: this project compiles without the DOM types)
  const brokenWords = (page: Page): Promise<string[]> =>
    page.evaluate(`(() => {
      const broken = [];
      for (const cell of document.querySelectorAll('.markdown table td, .markdown table th')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const m of (node.textContent ?? '').matchAll(/[^\\s-]{2,}/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(m[0]);
          }
        }
      }
      return broken;
    })()`);

  const screenshot = async (page: Page, name: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: resolve(ARTIFACTS, name) });
  };

  it('serves a document with real examples and readable bounds (no 9007199254740991)', async () => {
    const text = await (await fetch(`${base}/api/v1/openapi.json`)).text();
    expect(text).not.toContain('9007199254740991');
    expect(text).not.toContain('docs.invoicing.example');
  });

  it('renders the document with navigation, the finalize operation and its 402 answer, loading nothing from elsewhere', async () => {
    const { page, problems } = await openReference(1280);
    // navigation by resource: open the Invoices tag, then the finalize operation
    await page.getByText('Invoices', { exact: true }).first().click();
    const finalize = page.getByText('Finalize an invoice').first();
    await finalize.waitFor({ timeout: 30_000 });
    await finalize.click();
    await page.getByText('monthly quota used up (INVOICE_LIMIT_REACHED)').first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'api-reference.png');
    expect(await brokenWords(page)).toEqual([]);
    const body = await page.locator('body').innerText();
    expect(body).not.toContain('9007199254740991');
    // nothing that calls Scalar's cloud is offered
    expect(body).not.toMatch(/Ask AI|Generate MCP|Connect MCP/);
    expect(problems()).toEqual({ failed: [], foreign: [], errors: [] });
    await page.close();
  });

  it('finds the finalize operation by search', async () => {
    const { page, problems } = await openReference(1280);
    await page.keyboard.press('Control+k');
    const input = page.locator('input[type="search"], [role="combobox"], input[placeholder*="Search" i]').last();
    await input.waitFor({ timeout: 15_000 });
    await input.fill('finalize');
    await page
      .getByRole('option', { name: /Finalize an invoice/ })
      .first()
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'api-reference-search.png');
    expect(problems()).toEqual({ failed: [], foreign: [], errors: [] });
    await page.close();
  });

  it('finds webhook events by their names (invoice.finalized, payment_recorded) and the payments group', async () => {
    const { page, problems } = await openReference(1280);
    await page.keyboard.press('Control+k');
    const input = page.locator('input[type="search"], [role="combobox"], input[placeholder*="Search" i]').last();
    await input.waitFor({ timeout: 15_000 });
    for (const [query, found] of [
      ['invoice.finalized', /invoice\.finalized/],
      ['payment_recorded', /invoice\.payment_recorded/],
      ['Record a payment', /Record a payment/],
    ] as const) {
      await input.fill(query);
      await page.getByRole('option', { name: found }).first().waitFor({ timeout: 15_000 });
    }
    await screenshot(page, 'api-reference-search-event.png');
    await page.keyboard.press('Escape');
    await page.getByText('Payments', { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(problems()).toEqual({ failed: [], foreign: [], errors: [] });
    await page.close();
  });

  it('reads on a phone (390 px) and keeps the roles table words whole', async () => {
    const { page, problems } = await openReference(390);
    await screenshot(page, 'api-reference-390.png');
    const wrapped = await brokenWords(page);
    expect(wrapped).toEqual([]);
    expect(problems()).toEqual({ failed: [], foreign: [], errors: [] });
    await page.close();
  });

  it('resolves every problem type URI to its page, and lists them all', async () => {
    const index = await fetch(`${base}/api/v1/problems/`);
    expect(index.status).toBe(200);
    const html = await index.text();
    const missing: string[] = [];
    for (const code of Object.keys(ERROR_CODES)) {
      const type = problem(400, code, 'x').type;
      expect(type).toBe(`/api/v1/problems/${problemSlug(code)}`);
      const res = await fetch(new URL(type, base));
      const page = await res.text();
      if (res.status !== 200 || !page.includes(code) || !html.includes(`href="${type}"`)) missing.push(`${code} ${res.status}`);
    }
    expect(missing).toEqual([]);
    expect((await fetch(`${base}/api/v1/problems/no-such-problem`)).status).toBe(404);
  });
});
