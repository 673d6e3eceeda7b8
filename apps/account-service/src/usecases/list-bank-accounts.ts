import type { CompanyId } from '@inv/contracts';
import { bankAccountsOf } from '../domain/profile-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';

export async function listBankAccounts(deps: CompanyDeps, companyId: CompanyId) {
  return bankAccountsOf(await loadCompany(deps, companyId));
}
