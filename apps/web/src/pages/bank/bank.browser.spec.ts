import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, lookAt } from '../../testing/browser';
import { pageHarness, type FakeApi } from '../../testing/page-harness';
import { registerBankStatementPages } from './bank.pages';
import { confirmed, debit, detail, entry, invoice, statement } from './fixtures';

jest.setTimeout(120_000);

const longName = 'Wohnungsbaugenossenschaft „Neue Heimat Süd-West“ eG Abteilung Rechnungsprüfung und Zahlungsverkehr';
const long = {
  ...entry,
  id: 4,
  amount: '1234567.89',
  payer_name: longName,
  payer_iban: 'DE02120300000000202051',
  remittance_information: [
    'Sammelüberweisung RE-2026-0042 RE-2026-0043 RE-2026-0044 RE-2026-0045 abzgl. 2 % Skonto gem. Vereinbarung vom 01.10.2026',
    'KUNDENNUMMER-4711-VERTRAGSKONTO-0000000000123456789-OHNEABSTAENDE',
  ],
  references: ['RF18539007547034'],
  proposals: Array.from({ length: 5 }, (_, i) => ({
    invoice_id: 42 + i,
    invoice_number: `RE-2026-00${42 + i}-MIETE-GEWERBE-HAUPTSTRASSE`,
    customer_id: 7,
    amount: 1234567.89,
    open_amount: 1234567.89 + i,
    confidence: [0.95, 0.8, 0.6, 0.5, 0.3][i]!,
    reasons: ['invoice_number', 'amount_equals_open_minus_skonto', 'several_invoice_numbers', 'payer_name_matches', 'several_candidates'],
  })),
};
const statements = Array.from({ length: 8 }, (_, i) => ({
  ...statement,
  id: i + 1,
  filename: i === 0 ? 'camt053_Sparkasse_KoelnBonn_Geschaeftskonto_2026-11-26_bis_2026-11-30_Auszug_Nr_0231.xml' : statement.filename,
  statements:
    i === 0 ? [...statement.statements, { id: 'STMT-2', account_iban: 'DE89370400440532013000', currency: 'EUR' }] : statement.statements,
}));
const api: FakeApi = (c) => {
  if (c.path.startsWith('/bank-statements/?')) return { status: 200, body: { bank_statements: statements, total: 60, page: 1, limit: 25 } };
  if (c.path.startsWith('/bank-statements/3?page=4&limit=1'))
    return { status: 200, body: { ...detail, entries: [long], page: 4, limit: 1, total: 4 } };
  if (c.path.startsWith('/bank-statements/3?'))
    return { status: 200, body: { ...detail, filename: statements[0]!.filename, entries: [long, entry, debit, confirmed], total: 120 } };
  if (c.path.startsWith('/invoice/?'))
    return {
      status: 200,
      body: {
        invoices: [invoice, { ...invoice, id: 45, invoice_number: 'RE-2026-0045-SEHR-LANGE-NUMMER-MIT-ZUSATZ' }],
        total: 2,
        page: 1,
        limit: 20,
        next_cursor: null,
      },
    };
  return undefined;
};

(haveChromium ? describe : describe.skip)('bank statement pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => void (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it.each([
    ['owner', 'en'],
    ['viewer', 'de'],
  ] as const)(
    'as %s in %s: list, statement and correction without sideways scrolling or serious axe-core violations',
    async (role, lang) => {
      const h = await pageHarness({ register: registerBankStatementPages, role, lang, api });
      const page = await browser.newPage();
      try {
        await lookAt(page, `${h.url}/app/bank-statements`, `web-bank-list-${role}-${lang}`);
        await lookAt(page, `${h.url}/app/bank-statements/3`, `web-bank-statement-${role}-${lang}`);
        if (role === 'owner') await lookAt(page, `${h.url}/app/bank-statements/3/entries/4/correct`, `web-bank-correct-${role}-${lang}`);
      } finally {
        await page.close();
        await h.close();
      }
    },
  );
});
