import { REMINDER_EXAMPLE } from '@inv/contracts';

/** Reminder answers shaped exactly as the API's (ReminderSettings, ReminderProposal, Reminder), for the page tests. */
const text = { subject: 'Zahlungserinnerung {number}', body: 'Bitte zahlen Sie {total}.', is_default: true };
const level = { 1: text, 2: text, 3: text };
export const settings = {
  mode: 'propose',
  interval_days: [7, 14, 14],
  fees: [0, 5, 10],
  flat_fee_b2b: false,
  pay_within_days: 7,
  texts: { de: level, en: level },
  placeholders: ['{number}', '{total}'],
};
export const proposal = {
  invoice_id: 44,
  number: 'RE-2026-0044',
  customer_id: 9,
  level: 2,
  due_date: '2026-11-15',
  open_amount: 357,
  customer_name: 'Muster GmbH',
  proposed_on: '2026-11-29',
  reason: null,
};
export const reminder = { ...REMINDER_EXAMPLE, invoice_id: 44, level: 1, date: '2026-11-22', email_id: null };
export const customer = { id: 9, organization_name: 'Beispiel AG', first_name: null, last_name: null };
/** One entry of GET /invoice/reminders (ReminderListItem). */
export const sentReminder = { ...reminder, id: 7, invoice_number: 'RE-2026-0044', customer_id: 9, customer_name: 'Beispiel AG' };
