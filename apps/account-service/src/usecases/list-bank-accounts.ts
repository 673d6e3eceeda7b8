import { bankAccountsOf } from '../domain/profile-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';

export async function listBankAccounts(deps: CompanyDeps, companyId: string) {
  return bankAccountsOf(await loadCompany(deps, companyId));
}
