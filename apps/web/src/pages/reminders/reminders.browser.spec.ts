import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { invoice } from '../bank/fixtures';
import { registerReminderPages } from './reminders.pages';
import { customer, proposal, reminder, settings } from './fixtures';

jest.setTimeout(120_000);

const longCustomer = { ...customer, organization_name: 'Wohnungsbaugenossenschaft „Neue Heimat Süd-West“ eG Abteilung Rechnungsprüfung' };
const proposals = Array.from({ length: 6 }, (_, i) => ({
  ...proposal,
  invoice_id: 44 + i,
  number: `RE-2026-${String(44 + i).padStart(4, '0')}${i === 0 ? '-MIETE-GEWERBE-HAUPTSTRASSE' : ''}`,
  level: (i % 3) + 1,
  open_amount: 1234567.89 - i,
  reason: i === 1 ? 'no e-mail address of the buyer on the invoice: approve it to send it by post' : null,
}));
const invoices = Array.from({ length: 10 }, (_, i) => ({
  ...invoice,
  id: 44 + i,
  invoice_number: `RE-2026-${String(44 + i).padStart(4, '0')}`,
}));
const reminders = [
  { ...reminder, id: 1, level: 1, date: '2026-11-22', fees: 0, fee: 0, flat_fee: 0 },
  { ...reminder, id: 2, level: 2, date: '2026-12-06', flat_fee: 40, fees: 45, email_id: 'mail-2' },
  {
    ...reminder,
    id: 3,
    level: 3,
    date: '2026-12-20',
    fees: 55,
    source: 'daily_run',
    subject: '2. Mahnung zur Rechnung RE-2026-0044 – letzte Aufforderung vor Übergabe an das Inkasso',
  },
];
const api: FakeApi = (c) => {
  if (c.path === '/invoice/reminder-settings') return { status: 200, body: settings };
  if (c.path === '/invoice/reminder-proposals') return { status: 200, body: { proposals } };
  if (c.path.startsWith('/invoice/reminders?'))
    return {
      status: 200,
      body: {
        reminders: reminders.map((r, i) => ({
          ...r,
          id: 9 - i,
          invoice_number: invoices[i]!.invoice_number,
          customer_id: 9,
          customer_name: longCustomer.organization_name,
        })),
        next_cursor: 'r7',
      },
    };
  if (c.path.startsWith('/invoice/?')) return { status: 200, body: { invoices, total: 34, page: 1, limit: 10, next_cursor: null } };
  if (/^\/invoice\/\d+\/reminders$/.test(c.path))
    return { status: 200, body: { reminders: c.path === '/invoice/45/reminders' ? [] : reminders } };
  if (c.path === '/invoice/44') return { status: 200, body: invoice };
  if (c.path.startsWith('/customer/')) return { status: 200, body: longCustomer };
  return undefined;
};

(haveChromium ? describe : describe.skip)('reminder pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en'],
    ['viewer', 'de'],
  ] as const)(
    'as %s in %s: proposals and an invoice’s reminders without sideways scrolling or serious axe-core violations',
    async (role, lang) => {
      const h = await pageHarness({ register: registerReminderPages, role, lang, api });
      const page = await browser.newPage();
      try {
        await lookAt(page, `${h.url}/app/reminders`, `web-reminders-${role}-${lang}`);
        await lookAt(page, `${h.url}/app/reminders/invoices/44`, `web-reminders-invoice-${role}-${lang}`);
        await lookAt(page, `${h.url}/app/reminders/sent?level=2`, `web-reminders-sent-${role}-${lang}`);
      } finally {
        await page.close();
        await h.close();
      }
    },
  );
});
