import type { CompanyId, EmailTextsUpdate } from '@inv/contracts';
import { invalidData, type FieldError } from '@inv/service-kit';
import { DEFAULT_TEMPLATES, PLACEHOLDERS, unknownPlaceholders } from '../domain/email-texts';
import type { MailDeps } from '../deps';
import { getEmailTexts, templateFor } from './get-email-texts';

/** PUT /invoice/email-texts: per language subject and body (missing parts keep what is in force). */
export async function saveEmailTexts(deps: MailDeps, companyId: CompanyId, input: EmailTextsUpdate) {
  const errors: FieldError[] = [];
  const set: Record<string, unknown> = { updatedAt: deps.now() };
  for (const l of ['de', 'en'] as const) {
    const t = input[l];
    if (t === undefined) continue;
    const merged = {
      ...DEFAULT_TEMPLATES[l],
      ...(await templateFor(deps, companyId, l)),
      ...Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined)),
    };
    for (const part of ['subject', 'body'] as const) {
      const bad = unknownPlaceholders(merged[part]);
      if (bad.length)
        errors.push({
          path: `${l}.${part}`,
          message: `unknown placeholder ${bad.map((b) => `{${b}}`).join(', ')}; known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
        });
    }
    set[l] = merged;
  }
  if (errors.length) throw invalidData('the e-mail texts use unknown placeholders', errors);
  await deps.emails.saveTexts(companyId, set, {});
  return getEmailTexts(deps, companyId);
}
