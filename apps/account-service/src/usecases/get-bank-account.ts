import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { BankAccountDoc } from '../domain/company-doc';
import { bankAccountsOf } from '../domain/profile-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';

export async function getBankAccount(deps: CompanyDeps, companyId: CompanyId, id: number): Promise<BankAccountDoc> {
  const account = bankAccountsOf(await loadCompany(deps, companyId)).find((a) => a.id === id);
  if (!account) throw notFound(`bank account ${id}`);
  return account;
}
