import type { CompanyId, BankAccountInput } from '@inv/contracts';
import { conflict, invalidData, type FieldError } from '@inv/service-kit';
import type { BankAccountDoc } from '../domain/company-doc';
import { bankAccountsOf } from '../domain/profile-rules';
import { checkAccount, MAX_BANK_ACCOUNTS, writeAccounts } from '../support/bank-account-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';
import { retryOnConcurrentChange } from '../support/retry-concurrent-change';

/**
 * Adds an account: the company's first own one replaces the demo bootstrap's account and so becomes the default (as
 * the first account of a company without any does); at most MAX_BANK_ACCOUNTS, checked on the list the conditional write replaces (its revision), so
 * the limit holds under concurrency; a lost race re-reads and checks again (retry-concurrent-change.ts).
 */
export async function addBankAccount(deps: CompanyDeps, companyId: CompanyId, input: BankAccountInput): Promise<BankAccountDoc> {
  const errors: FieldError[] = [];
  const { iban, bic } = checkAccount(input, errors);
  if (errors.length) throw invalidData('the bank account is invalid', errors);
  return retryOnConcurrentChange(() => addOnce(deps, companyId, input, iban!, bic));
}

/**
 * The read, the checks and the write in one commit whose result is the account stored: a retry with the same
 * Idempotency-Key whose first attempt committed answers that account (the commit is replayed, nothing is checked or
 * written again) instead of finding its IBAN taken (409 DUPLICATE_BANK_ACCOUNT). The write stays conditional on the
 * revision read, as before.
 */
function addOnce(deps: CompanyDeps, companyId: CompanyId, input: BankAccountInput, iban: string, bic: string | undefined) {
  return deps.commit(async (session, emit) => {
    const c = await loadCompany(deps, companyId);
    // the demo account (bootstrap-demo-company.ts) is not the company's: its first own account takes its place
    const accounts = bankAccountsOf(c)
      .filter((a) => !a.demo)
      .map((a) => ({ ...a }));
    if (accounts.length >= MAX_BANK_ACCOUNTS)
      throw conflict(`a company keeps at most ${MAX_BANK_ACCOUNTS} bank accounts`, 'BANK_ACCOUNT_LIMIT_REACHED');
    if (accounts.some((a) => a.iban === iban))
      throw conflict(`the IBAN ${iban} is already one of the company's accounts`, 'DUPLICATE_BANK_ACCOUNT');
    const account: BankAccountDoc = {
      id: Math.max(0, ...accounts.map((a) => a.id)) + 1,
      iban,
      bic,
      bankName: input.bank_name,
      accountHolder: input.account_holder,
      isDefault: input.is_default === true || accounts.length === 0,
      createdAt: deps.now(),
    };
    if (account.isDefault) for (const a of accounts) a.isDefault = false;
    accounts.push(account);
    await writeAccounts(deps, c, accounts, 'bank_accounts', session, emit);
    return account;
  });
}
