import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import { bankAccountsOf } from '../domain/profile-rules';
import { saveAccounts } from '../support/bank-account-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';

/** DELETE: the default passes to the oldest remaining account; without any, validation asks for one. */
export async function deleteBankAccount(deps: CompanyDeps, companyId: CompanyId, id: number) {
  const c = await loadCompany(deps, companyId);
  const accounts = bankAccountsOf(c)
    .filter((a) => a.id !== id)
    .map((a) => ({ ...a }));
  if (accounts.length === bankAccountsOf(c).length) throw notFound(`bank account ${id}`);
  await saveAccounts(deps, c, accounts, 'bank_accounts');
}
