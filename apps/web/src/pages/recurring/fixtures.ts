/** Recurring invoice answers shaped exactly as the API's (RecurringInvoice, RecurringRun), for the page tests. */
export const template = {
  customer_id: 42,
  invoice_format: 'XRECHNUNG',
  buyer_reference: '04011000-12345-03',
  note: 'Rent as agreed in the lease of 2024-01-01.',
  meta: { contract: 'L-2024-007' },
  positions: [
    { title: 'Office rent', quantity: 1, unit_id: 'MON', unit_net_amount: 1200, tax_rate: 0.19 },
    { title: 'Service charge', quantity: 1.5, unit_id: 'MON', unit_net_amount: 150, tax_rate: 0.19 },
  ],
  email: { to: 'accounts-payable@customer.example', subject: 'Your rent invoice', attach_pdf: true },
};
export const schedule = {
  id: 1,
  name: 'Office rent Musterstraße 1',
  template,
  schedule: { interval: 'monthly', day_of_month: 1, start_date: '2026-12-01', end_date: '2027-11-30' },
  auto_finalize: true,
  auto_send_email: true,
  status: 'active',
  paused_reason: null,
  next_run_date: '2027-01-01',
  last_run: { date: '2026-12-01', period_start: '2026-12-01', period_end: '2026-12-31', invoice_id: 311, outcome: 'sent', error: null },
  created_at: '2026-11-27T09:12:44.120Z',
  updated_at: '2026-12-01T00:01:03.512Z',
};
export const paused = {
  ...schedule,
  id: 2,
  name: null,
  status: 'paused',
  paused_reason: 'finalize_failed',
  schedule: { interval: 'quarterly', day_of_month: 'last', start_date: '2026-12-01' },
  last_run: {
    date: '2027-01-01',
    period_start: '2027-01-01',
    period_end: '2027-01-31',
    invoice_id: 388,
    outcome: 'finalize_failed',
    error: '422 INVOICE_NOT_VALID: the invoice cannot be finalized: XRechnung needs the buyer reference. [buyerReference]',
  },
};
export const run = {
  id: '1:2026-12-01',
  date: '2026-12-01',
  period_start: '2026-12-01',
  period_end: '2026-12-31',
  invoice_id: 311,
  outcome: 'sent',
  error: null,
  started_at: '2026-12-01T00:01:00.004Z',
  finished_at: '2026-12-01T00:01:03.512Z',
};
export const customer = { id: 42, organization_name: 'Bezirksamt Mitte von Berlin', first_name: null, last_name: null };
