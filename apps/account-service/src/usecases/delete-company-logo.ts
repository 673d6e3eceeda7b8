import type { CompanyId } from '@inv/contracts';
import { swapLogo, type LogoDeps } from '../support/logo-store';

export async function deleteCompanyLogo(deps: LogoDeps, companyId: CompanyId): Promise<void> {
  const before = await swapLogo(deps, companyId, undefined, true);
  await deps.objects.remove(before.logo!.key).catch(() => undefined);
}
