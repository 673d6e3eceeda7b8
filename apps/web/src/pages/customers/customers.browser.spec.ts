import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { registerCustomerPages } from './customers.pages';
import { addresses, customer, invoiceRow, overview, statement } from './fixtures';

jest.setTimeout(120_000);

const many = Array.from({ length: 12 }, (_, i) =>
  customer({
    id: 7 + i,
    customer_number: 10007 + i,
    ...(i % 2
      ? {
          contact_type: 'B2C',
          organization_name: null,
          first_name: 'Maximiliane-Konstanze',
          last_name: 'Oberhuber-Rosenkranz',
          vat_id: null,
        }
      : {}),
    ...(i % 3 === 2 ? { is_active: false, vat_check: { ...customer().vat_check, status: 'invalid' } } : {}),
  }),
);
const api: FakeApi = (c) => {
  const path = c.path.split('?')[0];
  if (path === '/customer/') return { status: 200, body: many, headers: { 'x-total-count': '130' } };
  if (path === '/customer/7') return { status: 200, body: customer({ addresses }) };
  if (path === '/customer/7/financial-overview') return { status: 200, body: overview };
  if (path === '/invoice/')
    return {
      status: 200,
      body: { invoices: Array.from({ length: 10 }, (_, i) => invoiceRow(i)), total: 23, page: 1, limit: 10, next_cursor: null },
    };
  if (path === '/customer/7/statement')
    return { status: 200, body: { ...statement, entries: [...statement.entries, ...statement.entries, ...statement.entries] } };
  return undefined;
};

(haveChromium ? describe : describe.skip)('customer pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en'],
    ['viewer', 'de'],
  ] as const)('as %s in %s: list, detail and statement fit 1280/390/360 px, no serious axe-core violation', async (role, lang) => {
    const h = await pageHarness({ register: registerCustomerPages, role, lang, api });
    const page = await browser.newPage();
    try {
      await lookAt(page, `${h.url}/app/customers?q=M%C3%BCller&page=2`, `web-customers-list-${role}-${lang}`);
      await lookAt(page, `${h.url}/app/customers/7`, `web-customers-detail-${role}-${lang}`);
      await lookAt(page, `${h.url}/app/customers/7/statement?from=2026-10-01&to=2026-11-30`, `web-customers-statement-${role}-${lang}`);
    } finally {
      await page.close();
      await h.close();
    }
  });
});
