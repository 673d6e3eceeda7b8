import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { LogoDeps } from '../support/logo-store';

export async function companyLogoLink(deps: LogoDeps, companyId: CompanyId) {
  const company = await deps.companies.byId(companyId);
  if (!company) throw notFound('company');
  if (!company.logo) throw notFound('logo');
  return { logo: company.logo, url: await deps.objects.presignGet(company.logo.key, logoFileName(company.logo.contentType)) };
}

const logoFileName = (type: string) => (type === 'image/png' ? 'logo.png' : 'logo.jpg');
