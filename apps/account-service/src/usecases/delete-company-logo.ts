import { swapLogo, type LogoDeps } from '../support/logo-store';

export async function deleteCompanyLogo(deps: LogoDeps, companyId: string): Promise<void> {
  const before = await swapLogo(deps, companyId, undefined, true);
  await deps.objects.remove(before.logo!.key).catch(() => undefined);
}
