import { INVOICE_EXAMPLE, REMINDER_EXAMPLE } from '@inv/contracts';
import type { ApiCallSeen, FakeAnswer } from '../../testing/page-harness';

/** Test data shaped exactly like the API's answers (the contract's examples, made long and many). */
const LONG_NAME = 'Müller & Söhne Gebäudetechnik und Sanitärinstallationen GmbH & Co. KG Niederlassung Süd';

const position = (i: number) => ({
  ...INVOICE_EXAMPLE.positions[0]!,
  id: 100 + i,
  title:
    i === 0
      ? 'Beratung (Stunden) für die Einführung der elektronischen Rechnungsstellung nach EN 16931 im gesamten Konzern'
      : `Position ${i + 1}`,
  description: i % 3 === 0 ? 'Leistung vor Ort, November 2026, einschließlich Reisezeit und Dokumentation' : null,
  tax_rate: i % 2 === 0 ? 0.19 : 0.07,
  discount_type: i === 0 ? 'PERCENTAGE' : null,
  discount_value: i === 0 ? 10 : null,
  net_amount_after_discount: i === 0 ? 900 : 1000,
});

export const finalized = {
  ...INVOICE_EXAMPLE,
  customer_id: 7,
  vat_breakdown: [
    { vat_category: 'S', tax_rate: 0.19, net_amount: 9900, tax_amount: 1881 },
    { vat_category: 'S', tax_rate: 0.07, net_amount: 10000, tax_amount: 700 },
  ],
  net_amount: 19900,
  tax_amount: 2581,
  gross_amount: 22481,
  amount_due: 22481,
  paid_amount: 1000,
  credited_amount: 119,
  open_amount: 21362,
  customer_name: 'Muster GmbH',
  due_date: '2026-12-05',
  positions: Array.from({ length: 20 }, (_, i) => position(i)),
};

export const draft = {
  ...INVOICE_EXAMPLE,
  id: 43,
  invoice_id: 43,
  status: 'DRAFT',
  invoice_number: '',
  invoice_date: null,
  due_date: null,
  finalized_at: null,
  open_amount: null,
  customer_name: 'Muster GmbH',
  paid_amount: 0,
  positions: [position(0)],
};

export const creditNote = {
  ...INVOICE_EXAMPLE,
  id: 44,
  invoice_id: 44,
  document_type: 'CREDIT_NOTE',
  invoice_number: 'GS-2026-00003',
  preceding_invoice_id: 42,
  net_amount: 100,
  tax_amount: 19,
  gross_amount: 119,
  amount_due: 119,
  credited_amount: 119,
  open_amount: 0,
  customer_name: 'Muster GmbH',
  status: 'PAID',
  vat_breakdown: [{ vat_category: 'S', tax_rate: 0.19, net_amount: 100, tax_amount: 19 }],
  created_at: '2026-11-26T08:00:00.000Z',
  positions: undefined,
  position_count: 1,
};

const listEntry = (inv: Record<string, unknown>, over: Record<string, unknown> = {}) => {
  const { positions: _p, ...rest } = inv;
  return { ...rest, position_count: 1, ...over };
};

export const customers = [
  { id: 7, organization_name: LONG_NAME, first_name: null, last_name: null, email: 'buchhaltung@mueller-soehne-gebaeudetechnik.example' },
  { id: 8, organization_name: null, first_name: 'Erika', last_name: 'Mustermann', email: null },
];

export const invoicePage = (n = 3) => ({
  invoices: [
    listEntry(finalized),
    listEntry(draft),
    listEntry(creditNote),
    ...Array.from({ length: Math.max(0, n - 3) }, (_, i) =>
      listEntry(finalized, {
        id: 100 + i,
        invoice_id: 100 + i,
        invoice_number: `RE-2026-${String(100 + i).padStart(5, '0')}`,
        customer_id: 8,
        status: 'PAID',
        open_amount: 0,
        customer_name: 'Muster GmbH',
      }),
    ),
  ],
  total: 60,
  page: 1,
  limit: 25,
  next_cursor: null,
});

export const payments = {
  payments: [
    {
      id: 7,
      invoice_id: 42,
      amount: 1000,
      discount: 0,
      date: '2026-11-25',
      method: 'BANK_TRANSFER',
      reference: 'RE-2026-00042',
      source: 'manual',
      exported: false,
      reversed_at: null,
      created_at: '2026-11-25T10:00:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  limit: 100,
  gross_amount: 22481,
  paid_amount: 1000,
  skonto_amount: 0,
  open_amount: 21362,
  customer_name: 'Muster GmbH',
};

export const emails = {
  emails: [
    {
      id: 'a5b0c1c9-4a57-4a0e-9a39-2f4b0b8f3c11',
      status: 'sent',
      to: ['buchhaltung@mueller-soehne-gebaeudetechnik.example'],
      cc: [],
      bcc: [],
      subject: 'Rechnung RE-2026-00042',
      attachments: ['RE-2026-00042.pdf'],
      message_id: '<x@y>',
      error: null,
      created_at: '2026-11-21T09:31:00.000Z',
      sent_at: '2026-11-21T09:31:02.000Z',
    },
  ],
};

export const reminders = {
  reminders: [
    {
      ...REMINDER_EXAMPLE,
      invoice_id: 42,
      date: '2026-12-20',
      pay_by: '2026-12-27',
      interest_from: '2026-12-06',
      created_at: '2026-12-20T08:00:00.000Z',
    },
  ],
};

export const attachments = {
  attachments: [
    {
      id: 12,
      filename: 'Leistungsnachweis_November_2026_mit_sehr_langem_Dateinamen_ohne_Leerzeichen.pdf',
      content_type: 'application/pdf',
      size: 48211,
      sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      description: 'Stundennachweis',
      created_at: '2026-11-20T15:00:00.000Z',
    },
  ],
};

export const auditLog = {
  entries: [
    {
      seq: 12,
      at: '2026-11-21T09:30:04.000Z',
      action: 'invoice.finalized',
      resource_type: 'invoice',
      resource_id: '42',
      fields: ['status', 'invoice_number'],
      actor: { key_id: null, key_name: null, member_id: '0123456789abcdef01234567', role: 'owner', request_id: 'r1', client_ip: null },
      prev_hash: 'a'.repeat(64),
      hash: 'b'.repeat(64),
    },
  ],
  next_cursor: null,
};

export const validation = {
  valid: true,
  errors: [],
  warnings: [],
  checks: ['customer'],
  vat_check: { status: 'valid' },
  vat_override_required: false,
};

/** The fake public API of the invoice pages: answers what the pages read (and `extra` first). */
export function invoiceApi(extra?: (c: ApiCallSeen) => FakeAnswer | undefined) {
  return (c: ApiCallSeen): FakeAnswer | undefined => {
    const own = extra?.(c);
    if (own) return own;
    const [path, query = ''] = c.path.split('?');
    const q = new URLSearchParams(query);
    if (c.method !== 'GET') return undefined;
    if (path === '/invoice/')
      return q.get('document_type') === 'CREDIT_NOTE'
        ? { status: 200, body: { invoices: [listEntry(creditNote)], total: 1, page: 1, limit: 100, next_cursor: null } }
        : { status: 200, body: invoicePage() };
    if (path === '/customer/') return { status: 200, body: customers };
    if (path === '/customer/7') return { status: 200, body: customers[0] };
    if (path === '/invoice/42') return { status: 200, body: finalized };
    if (path === '/invoice/43') return { status: 200, body: draft };
    if (path === '/invoice/44') return { status: 200, body: { ...creditNote, positions: [position(0)] } };
    if (path === '/invoice/42/payments') return { status: 200, body: payments };
    if (path === '/invoice/42/emails') return { status: 200, body: emails };
    if (/^\/invoice\/4[34]\/emails$/.test(path!)) return { status: 200, body: { emails: [] } };
    if (path === '/invoice/42/reminders') return { status: 200, body: reminders };
    if (path === '/invoice/42/attachments') return { status: 200, body: attachments };
    if (/^\/invoice\/4[34]\/attachments$/.test(path!)) return { status: 200, body: { attachments: [] } };
    if (/^\/invoice\/4[34]\/payments$/.test(path!)) return { status: 200, body: { ...payments, payments: [], paid_amount: 0 } };
    if (path === '/invoice/43/validate') return { status: 200, body: validation };
    if (path === '/audit-log/') return { status: 200, body: auditLog };
    return undefined;
  };
}
