import type { BankAccountInput } from '@inv/contracts';
import type { Emit } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { conflict, type FieldError } from '@inv/service-kit';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { ClientSession } from 'mongoose';
import type { BankAccountDoc, CompanyDoc } from '../domain/company-doc';
import type { CompanyDeps } from './deps';

/** Most bank accounts a company keeps. */
export const MAX_BANK_ACCOUNTS = 10;

/** An IBAN in electronic format, or a field error (checksum and country length through ibantools). */
export function checkAccount(input: Partial<BankAccountInput>, errors: FieldError[]): { iban?: string; bic?: string } {
  let iban: string | undefined;
  if (input.iban !== undefined) {
    iban = electronicFormatIBAN(input.iban) ?? '';
    if (!isValidIBAN(iban)) errors.push({ path: 'iban', message: `"${input.iban}" is not a valid IBAN (country, length or check digits)` });
  }
  let bic: string | undefined;
  if (input.bic !== undefined) {
    bic = input.bic.replace(/\s/g, '').toUpperCase();
    if (!isValidBIC(bic)) errors.push({ path: 'bic', message: `"${input.bic}" is not a valid BIC` });
  }
  return { iban, bic };
}

export async function saveAccounts(deps: CompanyDeps, c: CompanyDoc, accounts: BankAccountDoc[], field: string) {
  await deps.commit((session, emit) => writeAccounts(deps, c, accounts, field, session, emit));
}

/** `saveAccounts` inside a caller's commit (one that answers what it stored). */
export async function writeAccounts(
  deps: CompanyDeps,
  c: CompanyDoc,
  accounts: BankAccountDoc[],
  field: string,
  session: ClientSession,
  emit: Emit,
) {
  // exactly one default while there are accounts
  if (accounts.length && !accounts.some((a) => a.isDefault)) accounts[0]!.isDefault = true;
  if (!(await deps.companies.setBankAccounts(c._id, c.bankAccountsRev, accounts, deps.now(), session)))
    throw conflict('the bank accounts changed meanwhile; retry', 'CONCURRENT_MODIFICATION');
  emit(eventMessage('company.profile-changed.v1', c._id, { fields: [field] }));
}
