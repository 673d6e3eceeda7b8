import type { CompanyId } from '@inv/contracts';
import { toJsonNumber } from '@inv/money';
import type { ReminderSettingsDoc } from '../db/reminders';
import {
  DEFAULT_DUNNING_SETTINGS,
  DEFAULT_REMINDER_TEXTS,
  LEVELS,
  REMINDER_PLACEHOLDERS,
  type DunningSettings,
  type Language,
  type ReminderTexts,
} from '../domain/dunning';
import type { ReceivablesDeps } from '../deps';

/** The settings in force: what the company saved over the defaults. */
export function settingsOf(saved: ReminderSettingsDoc | null | undefined): DunningSettings {
  const d = DEFAULT_DUNNING_SETTINGS;
  const texts = Object.fromEntries(
    (['de', 'en'] as const).map((l) => [
      l,
      Object.fromEntries(LEVELS.map((v) => [v, saved?.texts?.[`${l}_${v}`] ?? DEFAULT_REMINDER_TEXTS[l][v]])),
    ]),
  ) as ReminderTexts;
  return {
    mode: saved?.mode ?? d.mode,
    intervalDays: saved?.intervalDays ?? d.intervalDays,
    fees: saved?.fees ?? d.fees,
    flatFeeB2B: saved?.flatFeeB2B ?? d.flatFeeB2B,
    payWithinDays: saved?.payWithinDays ?? d.payWithinDays,
    texts,
  };
}

export async function reminderSettingsFor(deps: ReceivablesDeps, companyId: CompanyId): Promise<DunningSettings> {
  return settingsOf(await deps.reminders.settings(companyId));
}

/** GET /invoice/reminder-settings. */
export async function getReminderSettings(deps: ReceivablesDeps, companyId: CompanyId) {
  const saved = await deps.reminders.settings(companyId);
  const s = settingsOf(saved);
  const texts = (l: Language) =>
    Object.fromEntries(LEVELS.map((v) => [v, { ...s.texts[l][v], is_default: !saved?.texts?.[`${l}_${v}`] }])) as Record<
      1 | 2 | 3,
      { subject: string; body: string; is_default: boolean }
    >;
  return {
    mode: s.mode,
    interval_days: s.intervalDays,
    fees: s.fees.map((f) => toJsonNumber(f)),
    flat_fee_b2b: s.flatFeeB2B,
    pay_within_days: s.payWithinDays,
    texts: { de: texts('de'), en: texts('en') },
    placeholders: REMINDER_PLACEHOLDERS.map((p) => `{${p}}`),
  };
}
