import type { CompanyId } from '@inv/contracts';
import { DEFAULT_TEMPLATES, PLACEHOLDERS, type EmailTemplate, type Language } from '../domain/email-texts';
import type { MailDeps } from '../deps';

/** The texts in force per language: the company's own or the default. */
export async function getEmailTexts(deps: MailDeps, companyId: CompanyId) {
  const saved = await deps.emails.texts(companyId);
  const one = (l: Language) => ({ ...(saved?.[l] ?? DEFAULT_TEMPLATES[l]), is_default: !saved?.[l] });
  return { de: one('de'), en: one('en'), placeholders: PLACEHOLDERS.map((p) => `{${p}}`) };
}

export async function templateFor(deps: MailDeps, companyId: CompanyId, language: Language): Promise<EmailTemplate> {
  return (await deps.emails.texts(companyId))?.[language] ?? DEFAULT_TEMPLATES[language];
}
