import type { CompanyId, ReminderSettingsUpdate } from '@inv/contracts';
import { formatAmount } from '@inv/money';
import { invalidData, type FieldError } from '@inv/service-kit';
import { LEVELS, REMINDER_PLACEHOLDERS, unknownReminderPlaceholders } from '../domain/dunning';
import type { ReceivablesDeps } from '../deps';
import { getReminderSettings, settingsOf } from './get-reminder-settings';

/** PUT /invoice/reminder-settings: what is given replaces what is in force (texts per language, level and part). */
export async function saveReminderSettings(deps: ReceivablesDeps, companyId: CompanyId, input: ReminderSettingsUpdate) {
  const saved = await deps.reminders.settings(companyId);
  const set: Record<string, unknown> = { updatedAt: deps.now() };
  const unset: Record<string, 1> = {};
  if (input.mode !== undefined) set.mode = input.mode;
  if (input.interval_days !== undefined) set.intervalDays = input.interval_days;
  if (input.fees !== undefined) set.fees = input.fees.map((f) => formatAmount(f));
  if (input.flat_fee_b2b !== undefined) set.flatFeeB2B = input.flat_fee_b2b;
  if (input.pay_within_days !== undefined) set.payWithinDays = input.pay_within_days;
  const texts = input.reset_texts ? {} : { ...(saved?.texts ?? {}) };
  const current = settingsOf(input.reset_texts ? { ...saved, _id: companyId, texts: {}, updatedAt: new Date() } : saved);
  const errors: FieldError[] = [];
  for (const l of ['de', 'en'] as const) {
    for (const v of LEVELS) {
      const t = input.texts?.[l]?.[v];
      if (!t) continue;
      const merged = { ...current.texts[l][v], ...Object.fromEntries(Object.entries(t).filter(([, x]) => x !== undefined)) };
      for (const part of ['subject', 'body'] as const) {
        const bad = unknownReminderPlaceholders(merged[part]);
        if (bad.length)
          errors.push({
            path: `texts.${l}.${v}.${part}`,
            message: `unknown placeholder ${bad.map((b) => `{${b}}`).join(', ')}; known: ${REMINDER_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
          });
      }
      texts[`${l}_${v}`] = merged;
    }
  }
  if (errors.length) throw invalidData('the reminder texts use unknown placeholders', errors);
  if (input.texts !== undefined || input.reset_texts) set.texts = texts;
  await deps.reminders.saveSettings(companyId, set, unset);
  return getReminderSettings(deps, companyId);
}
