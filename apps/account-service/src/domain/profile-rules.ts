import type { BankAccountDoc, CompanyDoc } from './company-doc';

/** The company's bank accounts; a company bootstrapped with a single IBAN shows it as account 1. */
export function bankAccountsOf(c: CompanyDoc): BankAccountDoc[] {
  if (c.bankAccountsRev !== undefined) return c.bankAccounts ?? [];
  return c.iban
    ? [{ id: 1, iban: c.iban, bic: c.bic, bankName: c.bankName, accountHolder: c.legalName, isDefault: true, createdAt: c.createdAt }]
    : [];
}

/** The account printed on invoices (payment means 58, SEPA credit transfer). */
export const defaultBankAccount = (c: CompanyDoc) => bankAccountsOf(c).find((b) => b.isDefault) ?? bankAccountsOf(c)[0];
