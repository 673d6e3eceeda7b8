import { Dec, formatAmount, toDecimal } from '@inv/money';
import { BASE_RATES, baseRateOn } from './base-rates';
import { documentDate, euros } from '../../platform';

/**
 * Reminders (Mahnwesen), pure rules:
 * - levels: 1 payment reminder (Zahlungserinnerung), 2 overdue notice (1. Mahnung), 3 final reminder
 *   (2. Mahnung); each level once per invoice, in order.
 * - when a level is due: level 1 `interval_days[0]` days after the due date, level 2 `interval_days[1]` days after the
 *   level 1 reminder, level 3 `interval_days[2]` days after level 2.
 * - fees per level (the company's settings; default 0.00, 5.00, 10.00); a reminder shows the fees of all reminders of
 *   the invoice up to and including itself.
 * - default interest (§ 288 BGB) on the open amount at the base rate in force on each day (base-rates.ts) plus 9
 *   points (B2B, § 288 (2)) or 5 points (B2C, § 288 (1)), ACT/365 (actual days, a year of 365 days also in leap
 *   years), a period spanning a base rate change split at the change, rounded to the cent once at the end (half up).
 * - interest days: B2B, from the day after the due date (§ 286 (2) Nr. 1, § 187 (1) BGB) to the reminder date, both
 *   included. B2C: default begins with the first dunning letter (level 2, § 286 (1)) or 30 days after the due date
 *   (§ 286 (3)), whichever is earlier, and interest runs from the day after that to the reminder date. We assume
 *   the invoice was received by its due date.
 * - the flat fee of € 40 (§ 288 (5) BGB), B2B only and only when the company switched it on: once per invoice, on its
 *   first reminder issued while the customer is in default.
 */
export type ReminderLevel = 1 | 2 | 3;
export const LEVELS: readonly ReminderLevel[] = [1, 2, 3];
export type Language = 'de' | 'en';
export type ReminderMode = 'off' | 'propose' | 'send';

export const LEVEL_NAMES: Record<ReminderLevel, Record<Language, string>> = {
  1: { de: 'Zahlungserinnerung', en: 'Payment reminder' },
  2: { de: '1. Mahnung', en: 'Overdue notice' },
  3: { de: '2. Mahnung', en: 'Final reminder' },
};

export const B2B_POINTS = '9';
export const B2C_POINTS = '5';
export const FLAT_FEE_B2B = '40.00';
export const B2C_DEFAULT_AFTER_DAYS = 30;

export interface ReminderTemplate {
  subject: string;
  body: string;
}
export type ReminderTexts = Record<Language, Record<ReminderLevel, ReminderTemplate>>;

export const REMINDER_PLACEHOLDERS = [
  'level',
  'number',
  'invoice_date',
  'due_date',
  'open_amount',
  'fees',
  'interest',
  'total',
  'pay_by',
  'seller',
  'customer',
] as const;
export type ReminderPlaceholder = (typeof REMINDER_PLACEHOLDERS)[number];

export const DEFAULT_REMINDER_TEXTS: ReminderTexts = {
  de: {
    1: {
      subject: 'Zahlungserinnerung zur Rechnung {number}',
      body:
        'Sehr geehrte Damen und Herren,\n\nsicher ist es Ihrer Aufmerksamkeit entgangen: Unsere Rechnung {number} vom {invoice_date} war am {due_date} fällig und ist noch mit {open_amount} offen.\n\n' +
        'Bitte überweisen Sie {total} bis zum {pay_by}. Sollten Sie inzwischen gezahlt haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.\n\nMit freundlichen Grüßen\n{seller}\n',
    },
    2: {
      subject: '1. Mahnung zur Rechnung {number}',
      body:
        'Sehr geehrte Damen und Herren,\n\ntrotz unserer Zahlungserinnerung ist unsere Rechnung {number} vom {invoice_date}, fällig am {due_date}, noch mit {open_amount} offen.\n\n' +
        'Wir berechnen Mahngebühren von {fees} und Verzugszinsen von {interest}. Bitte überweisen Sie den Gesamtbetrag von {total} bis zum {pay_by}.\n\nMit freundlichen Grüßen\n{seller}\n',
    },
    3: {
      subject: '2. Mahnung zur Rechnung {number}',
      body:
        'Sehr geehrte Damen und Herren,\n\nunsere Rechnung {number} vom {invoice_date}, fällig am {due_date}, ist trotz Mahnung noch mit {open_amount} offen.\n\n' +
        'Mit Mahngebühren von {fees} und Verzugszinsen von {interest} fordern wir Sie letztmalig auf, {total} bis zum {pay_by} zu zahlen. Danach behalten wir uns weitere Schritte vor.\n\nMit freundlichen Grüßen\n{seller}\n',
    },
  },
  en: {
    1: {
      subject: 'Payment reminder: invoice {number}',
      body:
        'Dear Sir or Madam,\n\nAccording to our records, our invoice {number} dated {invoice_date}, which was due for payment on {due_date}, ' +
        'still has {open_amount} outstanding. Perhaps this has escaped your attention.\n\n' +
        'Please transfer {total} by {pay_by}. If you have already paid, please disregard this letter.\n\nYours faithfully\n{seller}\n',
    },
    2: {
      subject: 'Overdue notice: invoice {number}',
      body:
        'Dear Sir or Madam,\n\nDespite our payment reminder, our invoice {number} dated {invoice_date}, which was due for payment on {due_date}, ' +
        'still has {open_amount} outstanding.\n\n' +
        'We are charging reminder fees of {fees} and late payment interest of {interest}. Please transfer the total of {total} by {pay_by}.\n\nYours faithfully\n{seller}\n',
    },
    3: {
      subject: 'Final reminder: invoice {number}',
      body:
        'Dear Sir or Madam,\n\nDespite our reminders, our invoice {number} dated {invoice_date}, which was due for payment on {due_date}, ' +
        'still has {open_amount} outstanding.\n\n' +
        'Including reminder fees of {fees} and late payment interest of {interest}, the amount now due is {total}. This is our final reminder: ' +
        'please transfer it by {pay_by}, or we will take further steps to recover the debt without further notice.\n\nYours faithfully\n{seller}\n',
    },
  },
};

export interface DunningSettings {
  mode: ReminderMode;
  /** Days: level 1 after the due date, level 2 after level 1, level 3 after level 2. */
  intervalDays: [number, number, number];
  /** Fee per level, decimal strings. */
  fees: [string, string, string];
  /** The € 40 flat fee of § 288 (5) BGB for business customers. */
  flatFeeB2B: boolean;
  /** Days from the reminder date to the new payment date ({pay_by}). */
  payWithinDays: number;
  texts: ReminderTexts;
}

export const DEFAULT_DUNNING_SETTINGS: DunningSettings = {
  mode: 'off',
  intervalDays: [7, 14, 14],
  fees: ['0.00', '5.00', '10.00'],
  flatFeeB2B: false,
  payWithinDays: 7,
  texts: DEFAULT_REMINDER_TEXTS,
};

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
/** Days from `a` to `b` (b - a). */
export const daysBetween = (a: string, b: string) => dayNumber(b) - dayNumber(a);

/** The first day of interest: see the rules above. */
export function interestStart(dueDate: string, b2b: boolean, firstDunningLetterDate?: string): string {
  if (b2b) return addDays(dueDate, 1);
  const after30 = addDays(dueDate, B2C_DEFAULT_AFTER_DAYS);
  const defaultDay = firstDunningLetterDate && firstDunningLetterDate < after30 ? firstDunningLetterDate : after30;
  return addDays(defaultDay, 1);
}

export interface InterestPeriod {
  from: string;
  to: string;
  days: number;
  /** Base rate plus points, percent. */
  ratePercent: string;
  /** Unrounded. */
  amount: string;
}

/**
 * Interest on `amount` from `from` to `to`, both days included, split where the base rate changes; the total rounded
 * half up to the cent once. Nothing when `to` is before `from` or the amount is not positive.
 */
export function interestOf(amount: string, from: string, to: string, b2b: boolean): { amount: string; periods: InterestPeriod[] } {
  const open = toDecimal(amount);
  if (to < from || open.lte(0)) return { amount: '0.00', periods: [] };
  const points = b2b ? B2B_POINTS : B2C_POINTS;
  const changes = BASE_RATES.map((r) => r.from).filter((d) => d > from && d <= to);
  const starts = [from, ...changes];
  const periods: InterestPeriod[] = starts.map((start, i) => {
    const end = i + 1 < starts.length ? addDays(starts[i + 1]!, -1) : to;
    const days = daysBetween(start, end) + 1;
    const ratePercent = toDecimal(baseRateOn(start)).plus(points);
    const value = open.times(ratePercent).times(days).dividedBy(100).dividedBy(365);
    return { from: start, to: end, days, ratePercent: ratePercent.toFixed(2), amount: value.toFixed() };
  });
  const total = periods.reduce((s, p) => s.plus(p.amount), new Dec(0));
  return { amount: formatAmount(total), periods };
}

export interface IssuedReminder {
  level: number;
  date: string;
  fee: string;
  flatFee?: string;
}

/** The next level after the reminders issued (undefined: all three were issued). */
export function nextLevel(issued: readonly IssuedReminder[]): ReminderLevel | undefined {
  const top = issued.reduce((m, r) => Math.max(m, r.level), 0);
  return top >= 3 ? undefined : ((top + 1) as ReminderLevel);
}

/** The level due on `today` for the daily run (undefined: none yet, or all issued). */
export function dueLevel(
  dueDate: string,
  issued: readonly IssuedReminder[],
  today: string,
  intervalDays: DunningSettings['intervalDays'],
): ReminderLevel | undefined {
  const level = nextLevel(issued);
  if (!level) return undefined;
  const last = [...issued].sort((a, b) => b.level - a.level)[0];
  const since = level === 1 || !last ? dueDate : last.date;
  return daysBetween(since, today) >= intervalDays[level - 1] ? level : undefined;
}

export interface ReminderFigures {
  level: ReminderLevel;
  date: string;
  b2b: boolean;
  openAmount: string;
  /** This reminder's fee. */
  fee: string;
  /** The fees of the earlier reminders of the invoice plus this one's. */
  fees: string;
  /** The § 288 (5) flat fee charged with this reminder (0.00 when not). */
  flatFee: string;
  interest: string;
  interestFrom: string;
  periods: InterestPeriod[];
  total: string;
  payBy: string;
}

/** The amounts of a reminder of `level` on `date`. */
export function reminderFigures(input: {
  level: ReminderLevel;
  date: string;
  dueDate: string;
  openAmount: string;
  b2b: boolean;
  issued: readonly IssuedReminder[];
  settings: Pick<DunningSettings, 'fees' | 'flatFeeB2B' | 'payWithinDays'>;
}): ReminderFigures {
  const { level, date, dueDate, openAmount, b2b, issued, settings } = input;
  const fee = formatAmount(settings.fees[level - 1] ?? '0');
  const fees = formatAmount(issued.reduce((s, r) => s.plus(r.fee), toDecimal(fee)));
  const firstLetter = issued
    .filter((r) => r.level >= 2)
    .map((r) => r.date)
    .sort()[0];
  const interestFrom = interestStart(dueDate, b2b, firstLetter);
  const interest = interestOf(openAmount, interestFrom, date, b2b);
  const flatCharged = issued.some((r) => r.flatFee && toDecimal(r.flatFee).gt(0));
  const flatFee = b2b && settings.flatFeeB2B && !flatCharged && date > dueDate ? FLAT_FEE_B2B : '0.00';
  const total = formatAmount(toDecimal(openAmount).plus(fees).plus(interest.amount).plus(flatFee));
  return {
    level,
    date,
    b2b,
    openAmount: formatAmount(openAmount),
    fee,
    fees,
    flatFee,
    interest: interest.amount,
    interestFrom,
    periods: interest.periods,
    total,
    payBy: addDays(date, settings.payWithinDays),
  };
}

/** Whether the buyer is a business: a VAT ID on the invoice, or the customer is of type B2B. */
export const isBusiness = (buyer: { vatId?: string }, contactType?: 'B2B' | 'B2C') => Boolean(buyer.vatId) || contactType === 'B2B';

/** Placeholders a reminder text uses that do not exist (a PUT with them answers 400). */
export function unknownReminderPlaceholders(text: string): string[] {
  return [...text.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!).filter((p) => !(REMINDER_PLACEHOLDERS as readonly string[]).includes(p));
}

// one date format per language, the PDFs' (04.12.2026 / 4 Dec 2026)
const money = euros;
const day = documentDate;

/** Subject and text of a reminder after the company's template of its level and language. */
export function reminderTexts(
  template: ReminderTemplate,
  f: ReminderFigures,
  facts: { language: Language; number: string; invoiceDate: string; dueDate: string; seller: string; customer: string },
): { subject: string; text: string } {
  const l = facts.language;
  const values: Record<ReminderPlaceholder, string> = {
    level: LEVEL_NAMES[f.level][l],
    number: facts.number,
    invoice_date: day(facts.invoiceDate, l),
    due_date: day(facts.dueDate, l),
    open_amount: money(f.openAmount, l),
    fees: money(toDecimal(f.fees).plus(f.flatFee).toFixed(2), l),
    interest: money(f.interest, l),
    total: money(f.total, l),
    pay_by: day(f.payBy, l),
    seller: facts.seller,
    customer: facts.customer,
  };
  const fill = (t: string) => t.replace(/\{([a-z_]+)\}/g, (all, p: string) => (p in values ? values[p as ReminderPlaceholder] : all));
  return { subject: fill(template.subject), text: fill(template.body) };
}
