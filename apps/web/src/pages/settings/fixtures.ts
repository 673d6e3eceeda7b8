import type { ApiCallSeen, FakeAnswer } from '../../testing/page-harness';

/** Answers shaped exactly like the contracts (the page client checks them), for the settings pages' tests. */
export const company = {
  id: 'cmp_test',
  name: 'Müller & Söhne Präzisionswerkzeuge GmbH',
  legal_name: 'Müller & Söhne Präzisionswerkzeuge und Industriebedarf GmbH & Co. KG',
  trading_name: 'Müller & Söhne <Werkzeuge>',
  address: { line1: 'Hauptstraße 123', line2: 'Hinterhaus, 3. OG', postal_code: '10115', city: 'Berlin', country_code: 'DE' },
  vat_id: 'DE123456789',
  tax_number: '27/123/45678',
  peppol_id: null,
  registration_court: 'Amtsgericht Berlin-Charlottenburg',
  registration_id: 'HRB 123456 B',
  registration_id_scheme: null,
  seller_identifier: null,
  seller_identifier_scheme: null,
  managing_directors: ['Dr. Anna-Katharina Müller-Lüdenscheidt', 'Bernd Schmidt'],
  contact_name: 'Anna Müller',
  email: 'buchhaltung@mueller-soehne-praezisionswerkzeuge.example',
  phone: '+49 30 1234567',
  website: 'https://www.mueller-soehne-praezisionswerkzeuge.example',
  default_language: 'de',
  default_currency: 'EUR',
  payment_term_days: 14,
  default_payment_term_id: 2,
  default_template_id: null,
  has_logo: true,
  small_business: false,
  vat_check: {
    status: 'valid',
    checked_at: '2026-11-20T10:00:00.000Z',
    name: 'MUELLER & SOEHNE',
    consultation_number: 'WAPIAAAAW',
    fault: null,
  },
  plan: 'pro',
  bank_accounts: [],
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};
export const bankAccounts = {
  bank_accounts: [
    {
      id: 1,
      iban: 'DE89370400440532013000',
      iban_formatted: 'DE89 3704 0044 0532 0130 00',
      bic: 'COBADEFFXXX',
      bank_name: 'Commerzbank Berlin-Mitte Filiale Friedrichstraße',
      account_holder: 'Müller & Söhne Präzisionswerkzeuge und Industriebedarf GmbH & Co. KG',
      is_default: true,
      created_at: '2026-01-01T10:00:00.000Z',
    },
    {
      id: 2,
      iban: 'DE02120300000000202051',
      iban_formatted: 'DE02 1203 0000 0000 2020 51',
      bic: null,
      bank_name: null,
      account_holder: null,
      is_default: false,
      created_at: '2026-02-01T10:00:00.000Z',
    },
  ],
};
export const paymentTerms = {
  payment_terms: [
    { id: 1, name: '14 Tage netto', days: 14, discount: null, text_de: null, text_en: null, is_default: false },
    {
      id: 2,
      name: '2 % Skonto bei Zahlung innerhalb von 10 Tagen, 30 Tage netto <b>',
      days: 30,
      discount: { percent: 2.5, days: 10 },
      text_de: 'Zahlbar bis {due_date}.\nBei Zahlung bis {discount_date} {discount_percent} % Skonto.',
      text_en: null,
      is_default: true,
    },
  ],
};
export const sequences = {
  sequences: [
    { document_type: 'invoice', pattern: 'RE-{YYYY}-{SEQ:5}', reset: 'yearly', next_value: 42, next_number: 'RE-2026-00042' },
    { document_type: 'credit_note', pattern: 'GS-{YYYY}-{SEQ:4}', reset: 'never', next_value: 3, next_number: 'GS-2026-0003' },
  ],
};
export const emailTexts = {
  de: {
    subject: 'Rechnung {number} von {seller}',
    body: 'Sehr geehrte Damen und Herren,\n\nanbei erhalten Sie {document} {number} über {total}, fällig am {due_date}.\n\nMit freundlichen Grüßen\n{seller}',
    is_default: true,
  },
  en: {
    subject: 'Invoice {number} from {seller}',
    body: 'Dear {customer},\n\nplease find attached {document} {number} for {total}, due on {due_date}.\n\nKind regards\n{seller}',
    is_default: false,
  },
  placeholders: ['{number}', '{document}', '{total}', '{due_date}', '{seller}', '{customer}'],
};
export const datevConfig = {
  consultant_number: 29098,
  client_number: 55003,
  chart_of_accounts: 'SKR03',
  fiscal_year_start_month: 1,
  account_length: 4,
};
export const mappings = {
  chart_of_accounts: 'SKR03',
  account_length: 4,
  mappings: [
    { tax_treatment: 'standard', tax_rate: 0.19, label: 'Erlöse 19 % USt.', account: 8400, is_default: true },
    { tax_treatment: 'reduced', tax_rate: 0.07, label: 'Erlöse 7 % USt.', account: 8300, is_default: true },
    {
      tax_treatment: 'reverse_charge',
      tax_rate: null,
      label: 'Erlöse § 13b UStG (Steuerschuldnerschaft des Leistungsempfängers)',
      account: 8337,
      is_default: false,
    },
    {
      tax_treatment: 'intra_community',
      tax_rate: null,
      label: 'Steuerfreie innergemeinschaftliche Lieferungen',
      account: 8125,
      is_default: true,
    },
  ],
  receivables_account: 1400,
  debtor_accounts: 'per_customer',
  collective_debtor_account: 10000,
  bank_account: 1200,
  discount_account_standard: 8736,
  discount_account_reduced: 8731,
  discount_account_untaxed: 8730,
  expense_account: 4900,
};
export const downloads = [
  {
    id: 7,
    filename: 'DATEV_EXTF_29098_55003_20251001_20251231.zip',
    size: 48213,
    created_at: '2026-11-24T09:00:00.400Z',
    job_id: '5d0c1c2e-2b7a-4c38-9a57-0d7f3b2e9c11',
    period: { start: '2025-10-01', end: '2025-12-31' },
    invoice_count: 131,
  },
  {
    id: 8,
    filename: 'DATEV_EXTF_29098_55003_20260101_20260331_mit_einem_sehr_langen_Dateinamen.zip',
    size: 3_481_213,
    created_at: '2026-11-24T09:00:00.400Z',
    job_id: '5d0c1c2e-2b7a-4c38-9a57-0d7f3b2e9c11',
    period: { start: '2026-01-01', end: '2026-03-31' },
    invoice_count: 83,
  },
];
export const JOB = '5d0c1c2e-2b7a-4c38-9a57-0d7f3b2e9c11';
export const job = {
  job_id: JOB,
  id: JOB,
  task: 'process_acctexp_export_job',
  status: 'finished',
  progress: 100,
  start_date: '2025-10-01',
  end_date: '2026-03-31',
  include_master_data: true,
  include_documents: false,
  only_new: false,
  result: { download_ids: [7, 8], is_split: true, split_reason: 'year_boundary', total_invoice_count: 214 },
  created_at: '2026-11-24T09:00:00.000Z',
  started_at: '2026-11-24T09:00:00.050Z',
  finished_at: '2026-11-24T09:00:00.420Z',
};

/** A fake API answering every settings read (writes are answered by the test's own handler first). */
export function settingsApi(c: ApiCallSeen): FakeAnswer | undefined {
  if (c.method !== 'GET') return undefined;
  const path = c.path.split('?')[0]!;
  if (path === '/company/') return { status: 200, body: company };
  if (path === '/company/bank-accounts') return { status: 200, body: bankAccounts };
  const bank = /^\/company\/bank-accounts\/(\d+)$/.exec(path);
  if (bank) {
    const a = bankAccounts.bank_accounts.find((x) => String(x.id) === bank[1]);
    return a ? { status: 200, body: a } : { status: 404, body: { code: 'NOT_FOUND' } };
  }
  if (path === '/company/payment-terms') return { status: 200, body: paymentTerms };
  const term = /^\/company\/payment-terms\/(\d+)$/.exec(path);
  if (term) {
    const p = paymentTerms.payment_terms.find((x) => String(x.id) === term[1]);
    return p ? { status: 200, body: p } : { status: 404, body: { code: 'NOT_FOUND' } };
  }
  if (path === '/numbering/') return { status: 200, body: sequences };
  if (path === '/invoice/email-texts') return { status: 200, body: emailTexts };
  if (path === '/datev/config') return { status: 200, body: datevConfig };
  if (path === '/acctexp/mappings') return { status: 200, body: mappings };
  if (path === '/downloads/') return { status: 200, body: downloads };
  if (path === `/exports/job/${JOB}`) return { status: 200, body: job };
  return undefined;
}
