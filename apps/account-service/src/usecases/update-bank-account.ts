import type { CompanyId, BankAccountUpdate } from '@inv/contracts';
import { conflict, invalidData, notFound, type FieldError } from '@inv/service-kit';
import type { BankAccountDoc } from '../domain/company-doc';
import { bankAccountsOf } from '../domain/profile-rules';
import { checkAccount, saveAccounts } from '../support/bank-account-rules';
import type { CompanyDeps } from '../support/deps';
import { loadCompany } from './load-company';

export async function updateBankAccount(
  deps: CompanyDeps,
  companyId: CompanyId,
  id: number,
  input: BankAccountUpdate,
): Promise<BankAccountDoc> {
  const c = await loadCompany(deps, companyId);
  const accounts = bankAccountsOf(c).map((a) => ({ ...a }));
  const account = accounts.find((a) => a.id === id);
  if (!account) throw notFound(`bank account ${id}`);
  const errors: FieldError[] = [];
  const { iban, bic } = checkAccount(input, errors);
  if (errors.length) throw invalidData('the bank account is invalid', errors);
  if (iban !== undefined) {
    if (accounts.some((a) => a.id !== id && a.iban === iban))
      throw conflict(`the IBAN ${iban} is already one of the company's accounts`, 'DUPLICATE_BANK_ACCOUNT');
    account.iban = iban;
  }
  if (bic !== undefined) account.bic = bic;
  if (input.bank_name !== undefined) account.bankName = input.bank_name;
  if (input.account_holder !== undefined) account.accountHolder = input.account_holder;
  delete account.demo; // an account the company edited is its own
  if (input.is_default === true) for (const a of accounts) a.isDefault = a.id === id;
  await saveAccounts(deps, c, accounts, 'bank_accounts');
  return account;
}
