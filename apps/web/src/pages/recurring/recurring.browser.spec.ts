import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { registerRecurringPages } from './recurring.pages';
import { customer, paused, run, schedule, template } from './fixtures';

jest.setTimeout(120_000);

const longName = 'Wartungsvertrag Aufzugsanlagen Liegenschaft Friedrichstraße 123–127, Haus A bis D, inkl. Notrufbereitschaft';
const positions = Array.from({ length: 12 }, (_, i) => ({
  title:
    i === 0
      ? 'Vollwartung Personenaufzug gemäß DIN EN 13015 einschließlich Notbefreiung rund um die Uhr und Prüfung durch ZÜS'
      : `Position ${i + 1}`,
  quantity: i + 0.5,
  unit_id: i % 2 ? 'HUR' : 'C62',
  unit_net_amount: 1234.56 * (i + 1),
  tax_rate: i % 3 ? 0.19 : 0.07,
}));
const long = {
  ...schedule,
  name: longName,
  template: { ...template, positions, note: 'Leistung gemäß Vertrag Nr. 2024-AZ-0815 vom 01.01.2024; Abrechnung quartalsweise im Voraus.' },
};
const list = Array.from({ length: 8 }, (_, i) => ({ ...(i % 3 === 1 ? paused : long), id: i + 1 }));
const runs = Array.from({ length: 10 }, (_, i) => ({
  ...run,
  id: `1:2026-${String(i + 1).padStart(2, '0')}-01`,
  outcome: i === 0 ? 'finalize_failed' : 'sent',
  error:
    i === 0
      ? '422 INVOICE_NOT_VALID: the invoice cannot be finalized: XRechnung needs the buyer reference (Leitweg-ID for public buyers). [buyerReference]'
      : null,
  invoice_id: 300 + i,
}));
const api: FakeApi = (c) => {
  if (c.path.startsWith('/recurring-invoices/?')) return { status: 200, body: { recurring_invoices: list, total: 40, page: 1, limit: 25 } };
  if (c.path === '/recurring-invoices/1') return { status: 200, body: long };
  if (c.path === '/recurring-invoices/2') return { status: 200, body: { ...paused, template: long.template } };
  if (/^\/recurring-invoices\/\d+\/runs\?/.test(c.path)) return { status: 200, body: { runs, total: 30, page: 1, limit: 25 } };
  if (c.path.startsWith('/customer/'))
    return {
      status: 200,
      body: { ...customer, organization_name: 'Bezirksamt Friedrichshain-Kreuzberg von Berlin, Serviceeinheit Facility Management' },
    };
  return undefined;
};

(haveChromium ? describe : describe.skip)('recurring invoice pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en'],
    ['viewer', 'de'],
  ] as const)('as %s in %s: list and schedules without sideways scrolling or serious axe-core violations', async (role, lang) => {
    const h = await pageHarness({ register: registerRecurringPages, role, lang, api });
    const page = await browser.newPage();
    try {
      await lookAt(page, `${h.url}/app/recurring`, `web-recurring-${role}-${lang}`);
      await lookAt(page, `${h.url}/app/recurring/1`, `web-recurring-active-${role}-${lang}`);
      await lookAt(page, `${h.url}/app/recurring/2`, `web-recurring-paused-${role}-${lang}`);
    } finally {
      await page.close();
      await h.close();
    }
  });
});
