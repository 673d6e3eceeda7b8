import type { CompanyId } from '@inv/contracts';
import type { ReminderSettingsDoc } from '../db/reminders';
import { DEFAULT_DUNNING_SETTINGS, DEFAULT_REMINDER_TEXTS, LEVELS, type DunningSettings, type ReminderTexts } from '../domain/dunning';
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

/** GET /invoice/reminder-settings: the settings in force and what the company saved (http/presenters.ts shows them). */
export async function getReminderSettings(deps: ReceivablesDeps, companyId: CompanyId): Promise<ReminderSettingsView> {
  const saved = await deps.reminders.settings(companyId);
  return { settings: settingsOf(saved), saved };
}

export interface ReminderSettingsView {
  settings: DunningSettings;
  saved: ReminderSettingsDoc | null | undefined;
}
