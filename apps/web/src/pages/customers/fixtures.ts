/** Test data shaped exactly like the API's answers (libs/contracts customer-responses, invoice list), for the page tests. */

export const vatCheck = {
  status: 'valid' as const,
  vat_id: 'ATU12345678',
  checked_at: '2026-11-20T09:30:00.000Z',
  request_date: '2026-11-20',
  name: 'MÜLLER & SÖHNE HANDELSGESELLSCHAFT M.B.H.',
  address: 'HAUPTSTRASSE 1, 1010 WIEN',
  consultation_number: 'WAPIAAAAYxyz123',
  fault: null,
  reason: null,
};

export function customer(over: Record<string, unknown> = {}) {
  return {
    id: 7,
    customer_number: 10007,
    contact_type: 'B2B',
    organization_name: 'Müller & Söhne Handelsgesellschaft mit beschränkter Haftung, Niederlassung Süd <script>',
    first_name: null,
    last_name: null,
    salutation: null,
    email: 'buchhaltung.niederlassung-sued@mueller-und-soehne-handelsgesellschaft.example',
    phone: '+43 1 234 56 78',
    vat_id: 'ATU12345678',
    language: 'German',
    payment_term_id: null,
    default_ftl_template_id: null,
    buyer_reference: '04011000-12345-03',
    peppol_id: '9915:ATU12345678',
    codice_destinatario: null,
    pec: null,
    codice_fiscale: null,
    partita_iva: null,
    is_active: true,
    vat_check: vatCheck,
    created_at: '2026-10-01T08:00:00.000Z',
    updated_at: '2026-11-20T09:30:00.000Z',
    ...over,
  };
}

export const addresses = [
  {
    id: 1,
    type: 'billing',
    is_default: true,
    address_line_1: 'Mariahilfer Straße 123, Stiege 4, Tür 56',
    address_line_2: 'z. Hd. Kreditorenbuchhaltung',
    postal_code: '1060',
    city: 'Wien',
    state_province: null,
    country_code: 'AT',
  },
  {
    id: 2,
    type: 'shipping',
    is_default: false,
    address_line_1: 'Industriestraße 7',
    address_line_2: null,
    postal_code: '4020',
    city: 'Linz',
    state_province: null,
    country_code: 'AT',
  },
];

export const overview = {
  customer_id: 7,
  currency: 'EUR',
  outstanding: { total: 12345.67, count: 3 },
  overdue: { total: 1190, count: 1 },
  paid: { total: 98765.43, count: 42 },
  credit_notes: { total: 119, count: 1 },
  balance: 12345.67,
};

export function invoiceRow(i: number) {
  return {
    id: 100 + i,
    invoice_id: 100 + i,
    customer_id: 7,
    status: i % 3 === 0 ? 'PAID' : i % 3 === 1 ? 'OPEN' : 'DRAFT',
    invoice_number: i % 3 === 2 ? '' : `RE-2026-${String(1000 + i)}`,
    document_type: i === 4 ? 'CREDIT_NOTE' : 'INVOICE',
    invoice_date: '2026-11-0' + ((i % 9) + 1),
    due_date: '2026-12-0' + ((i % 9) + 1),
    gross_amount: 1190 + i,
    open_amount: i % 3 === 0 ? 0 : 1190 + i,
    customer_name: 'Muster GmbH',
    position_count: 3,
  };
}

export const statement = {
  customer_id: 7,
  currency: 'EUR',
  from: '2026-10-01',
  to: '2026-11-30',
  opening_balance: 500,
  entries: [
    { date: '2026-10-05', document_number: 'RE-2026-1001', type: 'invoice', debit: 1190, credit: null, balance: 1690 },
    { date: '2026-10-20', document_number: 'RE-2026-1001', type: 'payment', debit: null, credit: 1166.2, balance: 523.8 },
    { date: '2026-10-20', document_number: 'RE-2026-1001', type: 'discount', debit: null, credit: 23.8, balance: 500 },
    { date: '2026-11-02', document_number: 'GS-2026-0001', type: 'credit_note', debit: null, credit: 119, balance: 381 },
    { date: '2026-11-15', document_number: 'MA-2026-0004', type: 'reminder_fee', debit: 5, credit: null, balance: 386 },
  ],
  closing_balance: 386,
};
