import type { CompanyId } from '@inv/contracts';
import { DEFAULT_TEMPLATES, type EmailTemplate, type Language } from '../domain/email-texts';
import type { MailDeps } from '../deps';

/** The texts in force per language: the company's own or the default (http/presenters.ts shows them). */
export async function getEmailTexts(deps: MailDeps, companyId: CompanyId): Promise<EmailTextsView> {
  const saved = await deps.emails.texts(companyId);
  const one = (l: Language) => ({ template: saved?.[l] ?? DEFAULT_TEMPLATES[l], isDefault: !saved?.[l] });
  return { de: one('de'), en: one('en') };
}

export type EmailTextsView = Record<Language, { template: EmailTemplate; isDefault: boolean }>;

export async function templateFor(deps: MailDeps, companyId: CompanyId, language: Language): Promise<EmailTemplate> {
  return (await deps.emails.texts(companyId))?.[language] ?? DEFAULT_TEMPLATES[language];
}
