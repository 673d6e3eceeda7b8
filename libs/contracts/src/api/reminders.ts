import { z } from 'zod';
import { LanguageCode } from './languages';
import { DecimalInput, IsoDate } from './common';
import { safeText } from './safe-text';

/**
 * Reminders (Mahnwesen, invoice-service): level 1 payment reminder (Zahlungserinnerung), 2 overdue notice
 * (1. Mahnung), 3 final reminder (2. Mahnung), with the company's texts, fees and the default interest of
 * § 288 BGB; a daily run proposes or sends due reminders.
 */

export const ReminderLevel = z.union([z.literal(1), z.literal(2), z.literal(3)]).meta({
  description: '1 payment reminder (Zahlungserinnerung), 2 overdue notice (1. Mahnung), 3 final reminder (2. Mahnung)',
});
export const ReminderMode = z.enum(['off', 'propose', 'send']).meta({
  id: 'ReminderMode',
  description:
    'what the daily run does with a due reminder: off nothing (overdue invoices are still announced), propose list it under GET /invoice/reminder-proposals, send issue it and e-mail it to the customer',
});

const Subject = safeText(z.string().trim().min(1).max(200));
const Body = safeText(z.string().trim().min(1).max(10_000), { multiLine: true });
const TemplateIn = z.object({ subject: Subject.optional(), body: Body.optional() }).strict();
const LevelTexts = z.object({ 1: TemplateIn.optional(), 2: TemplateIn.optional(), 3: TemplateIn.optional() }).strict();
const Fee = DecimalInput({ maxDecimals: 2, min: 0, max: '10000.00', description: 'fee in EUR' });

/** PUT /invoice/reminder-settings: what is given replaces what is in force; a text left out keeps its current one. */
export const ReminderSettingsUpdate = z
  .object({
    mode: ReminderMode.optional(),
    interval_days: z
      .tuple([z.number().int().min(0).max(365), z.number().int().min(1).max(365), z.number().int().min(1).max(365)])
      .optional()
      .meta({
        description: 'level 1 this many days after the due date, level 2 after level 1, level 3 after level 2 (default [7, 14, 14])',
      }),
    fees: z.tuple([Fee, Fee, Fee]).optional().meta({ description: 'fee per level in EUR (default [0, 5, 10])' }),
    flat_fee_b2b: z
      .boolean()
      .optional()
      .meta({ description: 'charge the € 40 flat fee of § 288 (5) BGB to business customers, once per invoice (default false)' }),
    pay_within_days: z
      .number()
      .int()
      .min(1)
      .max(90)
      .optional()
      .meta({ description: 'the new payment date: days after the reminder (default 7)' }),
    texts: z.object({ de: LevelTexts.optional(), en: LevelTexts.optional() }).strict().optional().meta({
      description:
        'subject and body per language and level; placeholders {level}, {number}, {invoice_date}, {due_date}, {open_amount}, {fees}, {interest}, {total}, {pay_by}, {seller}, {customer}',
    }),
    reset_texts: z.boolean().optional().meta({ description: 'true: every text back to the default (before `texts` is applied)' }),
  })
  .strict()
  .meta({
    id: 'ReminderSettingsUpdate',
    example: { mode: 'propose', fees: [0, 5, 10], texts: { en: { 1: { subject: 'Friendly reminder: invoice {number}' } } } },
  });
export type ReminderSettingsUpdate = z.output<typeof ReminderSettingsUpdate>;

const TemplateOut = z.object({ subject: z.string(), body: z.string(), is_default: z.boolean() });
const LevelTextsOut = z.object({ 1: TemplateOut, 2: TemplateOut, 3: TemplateOut });
export const ReminderSettings = z
  .object({
    mode: ReminderMode,
    interval_days: z.array(z.number().int()),
    fees: z.array(z.number()).meta({ description: 'EUR per level' }),
    flat_fee_b2b: z.boolean(),
    pay_within_days: z.number().int(),
    texts: z.object({ de: LevelTextsOut, en: LevelTextsOut }),
    placeholders: z.array(z.string()),
  })
  .meta({ id: 'ReminderSettings' });

const Address = z.string().trim().max(254);
const Addresses = z.union([Address, z.array(Address).max(10)]);

/** POST /invoice/{id}/reminders. */
export const ReminderCreate = z
  .object({
    level: ReminderLevel.optional().meta({
      description: 'default: the next level (1 after none, then 2, 3); a level already issued is 409',
    }),
    date: IsoDate.optional().meta({
      description: 'the reminder date (interest runs to it, both days included); default today (UTC); at most 730 days ahead',
    }),
    language: LanguageCode.optional().meta({
      description: "de or en (German and English are accepted too, in any case); default: the customer's language on the invoice",
    }),
    send_email: z.boolean().default(false).meta({ description: 'e-mail the reminder with its PDF and the invoice PDF attached' }),
    to: Addresses.optional().meta({
      description: 'with send_email: one address or a list (default: the e-mail address of the buyer on the invoice)',
    }),
    cc: Addresses.optional(),
    bcc: Addresses.optional(),
    subject: safeText(z.string().trim().min(1).max(200)).optional().meta({ description: "default: the company's text of the level" }),
    message: safeText(z.string().max(10_000), { multiLine: true })
      .optional()
      .meta({ description: "default: the company's text of the level (also printed in the PDF)" }),
  })
  .strict()
  .meta({ id: 'ReminderCreate', example: { send_email: true, to: 'ap@buyer.example', language: 'de' } });
export type ReminderCreate = z.output<typeof ReminderCreate>;

const Money = z.number().meta({ description: 'EUR, exact to the cent' });
/** Invoice 42 (RE-2025-0042, 1,000.00 open, due 2025-05-15, a business customer): its overdue notice (level 2) on 2025-08-14. */
export const REMINDER_EXAMPLE = {
  id: 2,
  invoice_id: 42,
  level: 2,
  date: '2025-08-14',
  language: 'de',
  b2b: true,
  open_amount: 1000,
  fee: 5,
  fees: 5,
  flat_fee: 0,
  interest: 26.86,
  interest_from: '2025-05-16',
  interest_periods: [
    { from: '2025-05-16', to: '2025-06-30', days: 46, rate_percent: 11.27 },
    { from: '2025-07-01', to: '2025-08-14', days: 45, rate_percent: 10.27 },
  ],
  total: 1031.86,
  pay_by: '2025-08-21',
  subject: '1. Mahnung zur Rechnung RE-2025-0042',
  email_id: '5b0c1c9e-4a57-4a0e-9a39-2f4b0b8f3c11',
  source: 'manual',
  created_at: '2025-08-14T08:00:02.311Z',
};

export const Reminder = z
  .object({
    id: z.number().int(),
    invoice_id: z.number().int(),
    level: z.number().int(),
    date: z.string(),
    language: z.enum(['de', 'en']),
    b2b: z.boolean().meta({ description: 'business customer: base rate + 9 points (else + 5)' }),
    open_amount: Money,
    fee: Money.meta({ description: "this reminder's fee" }),
    fees: Money.meta({ description: 'the fees of this and the earlier reminders of the invoice' }),
    flat_fee: Money.meta({ description: '§ 288 (5) BGB flat fee charged with this reminder (0 without)' }),
    interest: Money.meta({ description: 'default interest up to the reminder date' }),
    interest_from: z.string().meta({ description: 'first day of interest' }),
    interest_periods: z.array(z.object({ from: z.string(), to: z.string(), days: z.number().int(), rate_percent: z.number() })),
    total: Money,
    pay_by: z.string(),
    subject: z.string(),
    email_id: z.string().nullable(),
    source: z.enum(['manual', 'daily_run']),
    created_at: z.string(),
  })
  .meta({ id: 'Reminder', example: REMINDER_EXAMPLE });

export const ReminderProposal = z
  .object({
    invoice_id: z.number().int(),
    number: z.string(),
    customer_id: z.number().int(),
    level: z.number().int(),
    due_date: z.string(),
    open_amount: Money,
    proposed_on: z.string().meta({ description: 'the day of the daily run that proposed it' }),
    reason: z.string().nullable().meta({ description: 'why it was proposed although the mode is send (e.g. no e-mail address)' }),
  })
  .meta({ id: 'ReminderProposal' });

/** GET /invoice/reminders: the company's reminders across its invoices, newest first. */
export const ReminderListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: 'page size, at most 100' }),
    level: z.enum(['1', '2', '3']).transform(Number).optional().meta({ description: 'only reminders of this level' }),
    date_from: IsoDate.optional().meta({ description: 'reminder date on or after' }),
    date_to: IsoDate.optional().meta({ description: 'reminder date on or before' }),
    cursor: z
      .string()
      .max(20)
      .regex(/^r[1-9]\d{0,11}$/, 'must be a next_cursor of an earlier page')
      .optional()
      .meta({
        description: 'the next_cursor of the previous page: the reminders issued before its last one, with the same filters',
        example: 'r2',
      }),
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, { path: ['date_to'], message: 'must not be before date_from' });
export type ReminderListQuery = z.output<typeof ReminderListQuery>;

/** A reminder in the company-wide list: the reminder and the invoice it is for. */
export const ReminderListItem = Reminder.extend({
  invoice_number: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string().nullable().meta({ description: 'the buyer on the invoice' }),
}).meta({ id: 'ReminderListItem' });

export const ReminderPage = z
  .object({
    reminders: z.array(ReminderListItem),
    next_cursor: z.string().nullable().meta({ description: 'give it as cursor for the next page; null on the last page' }),
  })
  .meta({ id: 'ReminderPage' });
