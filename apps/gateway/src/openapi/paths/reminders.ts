import { z } from 'zod';
import {
  AttachmentLink,
  Reminder,
  REMINDER_EXAMPLE,
  ReminderCreate,
  ReminderListQuery,
  ReminderPage,
  ReminderProposal,
  ReminderSettings,
  ReminderSettingsUpdate,
} from '@inv/contracts';
import { body, bodyErrors, commonErrors, conflict, intId, notFound, problem, queryParams, type Operation, jsonExample } from '../builder';

const firstExample = {
  ...REMINDER_EXAMPLE,
  id: 1,
  level: 1,
  date: '2025-05-22',
  fee: 0,
  fees: 0,
  interest: 2.16,
  interest_from: '2025-05-16',
  interest_periods: [{ from: '2025-05-16', to: '2025-05-22', days: 7, rate_percent: 11.27 }],
  total: 1002.16,
  pay_by: '2025-05-29',
  subject: 'Zahlungserinnerung zur Rechnung RE-2025-0042',
  created_at: '2025-05-22T08:00:01.102Z',
};

const text = (subject: string, body: string) => ({ subject, body, is_default: true });
const settingsExample = {
  mode: 'propose',
  interval_days: [7, 14, 14],
  fees: [0, 5, 10],
  flat_fee_b2b: false,
  pay_within_days: 7,
  texts: {
    de: {
      1: text('Zahlungserinnerung zur Rechnung {number}', 'Sehr geehrte Damen und Herren,\n\n…'),
      2: text('1. Mahnung zur Rechnung {number}', 'Sehr geehrte Damen und Herren,\n\n…'),
      3: text('2. Mahnung zur Rechnung {number}', 'Sehr geehrte Damen und Herren,\n\n…'),
    },
    en: {
      1: { subject: 'Friendly reminder: invoice {number}', body: 'Dear Sir or Madam,\n\n…', is_default: false },
      2: text('Overdue notice: invoice {number}', 'Dear Sir or Madam,\n\nDespite our payment reminder, …'),
      3: text('Final reminder: invoice {number}', 'Dear Sir or Madam,\n\nDespite our reminders, …'),
    },
  },
  placeholders: [
    '{level}',
    '{number}',
    '{invoice_date}',
    '{due_date}',
    '{open_amount}',
    '{fees}',
    '{interest}',
    '{total}',
    '{pay_by}',
    '{seller}',
    '{customer}',
  ],
};

const RULES =
  'Levels: 1 payment reminder (Zahlungserinnerung), 2 overdue notice (1. Mahnung), 3 final reminder (2. Mahnung), each once per invoice, in order (a level may be skipped). ' +
  'Only finalized invoices (OPEN, SENT) with an open amount (gross - payments - Skonto) and the reminder date after the due date. ' +
  "Fees: the company's fee of the level; a reminder shows the fees of all reminders of the invoice so far. " +
  'Default interest (§ 288 BGB) on the open amount: the base rate (Basiszinssatz, Deutsche Bundesbank) in force on each day + 9 points for a business customer ' +
  '(a VAT ID on the invoice, or the customer type B2B) or + 5 points for a consumer, per day with actual days / 365, a period spanning a change of the base rate split, ' +
  'rounded half up to the cent once. Business customers: from the day after the due date to the reminder date, both included. ' +
  'Consumers: from the day after the overdue notice (level 2) or 30 days after the due date (§ 286 (3) BGB), whichever is earlier. ' +
  'With `flat_fee_b2b` the € 40 of § 288 (5) BGB is charged once to a business customer, with its first reminder.';

/** Reminders (invoice-service): settings, issuing and listing reminders of an invoice or the company, the daily run's proposals. */
export function reminderPaths(): Record<string, Record<string, unknown>> {
  const r = (o: Omit<Operation, 'tags'>): Operation => ({ tags: ['Reminders'], ...o });
  return {
    '/invoice/reminder-settings': {
      get: r({
        operationId: 'getReminderSettings',
        summary: 'Get the reminder settings',
        description: "The company's texts (German and English, per level), fees, intervals and what the daily run does (`mode`).",
        responses: { 200: jsonExample(ReminderSettings, settingsExample), ...commonErrors() },
      }),
      put: r({
        operationId: 'saveReminderSettings',
        summary: 'Change the reminder settings',
        description:
          'Needs `company:write`. Only what is sent changes; a text keeps its other part (subject or body). `reset_texts: true` restores the default texts first. ' +
          'The daily run (once per UTC day, the first hour) announces every overdue invoice once per due date (webhook `invoice.status_changed` with status OVERDUE), and when a level is due ' +
          '(`interval_days`: level 1 after the due date, level 2 after level 1, level 3 after level 2) it lists it under GET /invoice/reminder-proposals (`propose`) ' +
          "or issues it and e-mails it to the buyer's address on the invoice (`send`; without an address it is proposed with the reason). " +
          'An unknown placeholder is 400.',
        requestBody: body(ReminderSettingsUpdate, {
          mode: 'propose',
          fees: [0, 5, 10],
          texts: { en: { 1: { subject: 'Friendly reminder: invoice {number}' } } },
        }),
        responses: { 200: jsonExample(ReminderSettings, settingsExample), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/invoice/reminders': {
      get: r({
        operationId: 'listCompanyReminders',
        summary: "List the company's reminders",
        description:
          'Every reminder issued for any invoice of the company, by hand or by the daily run, the last one issued first, with the invoice number and buyer. ' +
          'Filter by level and reminder date; follow next_cursor for the next page (each page costs what the first does). An invoice paid since keeps its reminders here.',
        parameters: queryParams(ReminderListQuery),
        responses: {
          200: jsonExample(ReminderPage, {
            reminders: [
              { ...REMINDER_EXAMPLE, invoice_number: 'RE-2025-0042', customer_id: 7, customer_name: 'Beispiel GmbH' },
              { ...firstExample, invoice_number: 'RE-2025-0042', customer_id: 7, customer_name: 'Beispiel GmbH' },
            ],
            next_cursor: 'r1',
          }),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/reminder-proposals': {
      get: r({
        operationId: 'listReminderProposals',
        summary: 'List the reminders the daily run proposes',
        description:
          'Due reminders of invoices still open, oldest proposal first; issuing the reminder (POST /invoice/{id}/reminders) removes its proposal.',
        responses: {
          200: jsonExample(z.object({ proposals: z.array(ReminderProposal) }), {
            proposals: [
              {
                invoice_id: 42,
                number: 'RE-2025-0042',
                customer_id: 7,
                level: 1,
                due_date: '2025-05-15',
                open_amount: 1000,
                proposed_on: '2025-05-22',
                reason: null,
              },
            ],
          }),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/reminders': {
      parameters: [intId('id', 'invoice id')],
      post: r({
        operationId: 'createReminder',
        summary: 'Issue a reminder',
        description:
          `${RULES} The PDF (letterhead, the level's text, a table of the invoice, open amount, fees, interest and total) is rendered and stored; ` +
          '`send_email: true` e-mails it with the invoice PDF attached (recipients and daily limits as POST /invoice/{id}/send_email; ' +
          "default recipient: the buyer's e-mail address on the invoice). The audit log records it and the webhook `invoice.reminder_issued` announces it.",
        requestBody: body(ReminderCreate, { level: 2, date: '2025-08-14', send_email: true, to: 'ap@buyer.example' }),
        responses: {
          201: jsonExample(Reminder, REMINDER_EXAMPLE, 'issued; Location names the link to its PDF'),
          ...notFound(),
          ...conflict(
            'not remindable: a draft, cancelled invoice or credit note (INVOICE_NOT_REMINDABLE), nothing open (INVOICE_ALREADY_PAID), not overdue on the date ' +
              '(INVOICE_NOT_OVERDUE), the level or a higher one issued already (REMINDER_LEVEL_ISSUED), all three issued (REMINDER_LEVELS_EXHAUSTED)',
          ),
          ...bodyErrors(),
          ...commonErrors(),
          429: problem(
            'with send_email: a daily e-mail limit of the invoice or the company (EMAIL_LIMIT_EXCEEDED; `retry_after`), or the rate limit',
          ),
        },
      }),
      get: r({
        operationId: 'listReminders',
        summary: "List an invoice's reminders",
        description: 'By level.',
        responses: {
          200: jsonExample(z.object({ reminders: z.array(Reminder) }), { reminders: [firstExample, REMINDER_EXAMPLE] }),
          ...notFound(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/reminders/{rid}/pdf': {
      parameters: [intId('id', 'invoice id'), intId('rid', 'reminder id')],
      get: r({
        operationId: 'getReminderPdf',
        summary: "A link to a reminder's PDF",
        description: 'Presigned; valid for `expires_in` seconds.',
        responses: {
          200: jsonExample(AttachmentLink, {
            url: 'https://files.example/acme/invoices/42/reminders/2-2.pdf?X-Amz-Signature=…',
            filename: 'Mahnung-RE-2025-0042-2.pdf',
            content_type: 'application/pdf',
            expires_in: 900,
          }),
          ...notFound(),
          ...commonErrors(),
        },
      }),
    },
  };
}
