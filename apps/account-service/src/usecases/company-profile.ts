import type { BankAccountInput, BankAccountUpdate, CompanyProfileUpdate } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import { conflict, invalidData, notFound, type FieldError } from '@inv/service-kit';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { BankAccountDoc, CompaniesRepo, CompanyDoc } from '../db/companies';
import { bankAccountsOf } from '../domain/profile-rules';
import { paymentTermsOf } from '../domain/payment-term-rules';

export interface CompanyDeps {
  companies: CompaniesRepo;
  /** Checks default_template_id with document-service; absent in tests that do not need it. */
  templateExists?: (companyId: string, templateId: number) => Promise<boolean>;
  /** Writes a change and its announcements (audit log, services keeping copies) together through the outbox. */
  commit: Changes['commit'];
  now: () => Date;
}

/** Most bank accounts a company keeps. */
export const MAX_BANK_ACCOUNTS = 10;

async function load(deps: CompanyDeps, companyId: string): Promise<CompanyDoc> {
  const c = await deps.companies.byId(companyId);
  if (!c) throw notFound('company');
  return c;
}

/** PUT /company/: the fields sent change; invoices finalized before keep the seller data they were issued with. */
export async function updateCompanyProfile(deps: CompanyDeps, companyId: string, input: CompanyProfileUpdate): Promise<CompanyDoc> {
  const current = await load(deps, companyId);
  const set: Record<string, unknown> = {};
  const unset: Record<string, 1> = {};
  const errors: FieldError[] = [];
  if (input.default_payment_term_id != null && !paymentTermsOf(current).some((t) => t.id === input.default_payment_term_id)) {
    errors.push({
      path: 'default_payment_term_id',
      message: `payment term ${input.default_payment_term_id} does not exist; see GET /company/payment-terms`,
    });
  }
  if (input.default_template_id != null && deps.templateExists && !(await deps.templateExists(companyId, input.default_template_id))) {
    errors.push({ path: 'default_template_id', message: `template ${input.default_template_id} does not exist; see GET /template/` });
  }
  if (errors.length) throw invalidData('the company profile is invalid', errors);
  if (input.small_business !== undefined) set.smallBusiness = input.small_business;
  if (input.default_payment_term_id === null) unset.defaultPaymentTermId = 1;
  else if (input.default_payment_term_id !== undefined) set.defaultPaymentTermId = input.default_payment_term_id;
  if (input.default_template_id === null) unset.defaultTemplateId = 1;
  else if (input.default_template_id !== undefined) set.defaultTemplateId = input.default_template_id;
  if (input.legal_name !== undefined) set.legalName = input.legal_name;
  if (input.trading_name !== undefined) set.name = input.trading_name;
  if (input.address)
    set.address = {
      line1: input.address.line1,
      line2: input.address.line2,
      postalCode: input.address.postal_code,
      city: input.address.city,
      countryCode: input.address.country_code,
    };
  if (input.vat_id !== undefined) set.vatId = input.vat_id.replace(/[\s.-]/g, '').toUpperCase();
  if (input.tax_number !== undefined) set.taxNumber = input.tax_number;
  if (input.registration_court !== undefined) set.registrationCourt = input.registration_court;
  if (input.registration_id !== undefined) set.registrationId = input.registration_id;
  if (input.managing_directors !== undefined) set.managingDirectors = input.managing_directors;
  if (input.contact_name !== undefined) set.contactName = input.contact_name;
  if (input.email !== undefined) set.email = input.email;
  if (input.phone !== undefined) set.phone = input.phone;
  if (input.website !== undefined) set.website = input.website;
  if (input.default_language !== undefined) set.defaultLanguage = input.default_language;
  if (input.payment_term_days !== undefined) set.paymentTermDays = input.payment_term_days;
  const fields = [...Object.keys(set), ...Object.keys(unset)];
  if (fields.length === 0) return current;
  const vatChanged = typeof set.vatId === 'string' && set.vatId !== current.vatId;
  if (vatChanged) unset.vatCheck = 1;
  return deps.commit(async (session, emit) => {
    const updated = await deps.companies.update(companyId, { ...set, updatedAt: deps.now() }, unset, session);
    if (!updated) throw notFound('company');
    emit(eventMessage('company.profile-changed.v1', companyId, { fields }));
    // The company's VAT ID is checked at VIES the way customers' are (vat-service answers with vat.checked.v1).
    if (vatChanged && updated.vatId) emit(eventMessage('company.vat-id-changed.v1', companyId, { vatId: updated.vatId }));
    return updated;
  });
}

/** An IBAN in electronic format, or a field error (checksum and country length through ibantools). */
function checkAccount(input: Partial<BankAccountInput>, errors: FieldError[]): { iban?: string; bic?: string } {
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

async function saveAccounts(deps: CompanyDeps, c: CompanyDoc, accounts: BankAccountDoc[], field: string) {
  // exactly one default while there are accounts
  if (accounts.length && !accounts.some((a) => a.isDefault)) accounts[0]!.isDefault = true;
  await deps.commit(async (session, emit) => {
    if (!(await deps.companies.setBankAccounts(c._id, c.bankAccountsRev, accounts, deps.now(), session)))
      throw conflict('the bank accounts changed meanwhile; retry', 'CONCURRENT_MODIFICATION');
    emit(eventMessage('company.profile-changed.v1', c._id, { fields: [field] }));
  });
}

export async function listBankAccounts(deps: CompanyDeps, companyId: string) {
  return bankAccountsOf(await load(deps, companyId));
}

export async function addBankAccount(deps: CompanyDeps, companyId: string, input: BankAccountInput): Promise<BankAccountDoc> {
  const c = await load(deps, companyId);
  const errors: FieldError[] = [];
  const { iban, bic } = checkAccount(input, errors);
  if (errors.length) throw invalidData('the bank account is invalid', errors);
  const accounts = bankAccountsOf(c).map((a) => ({ ...a }));
  if (accounts.length >= MAX_BANK_ACCOUNTS)
    throw conflict(`a company keeps at most ${MAX_BANK_ACCOUNTS} bank accounts`, 'BANK_ACCOUNT_LIMIT_REACHED');
  if (accounts.some((a) => a.iban === iban))
    throw conflict(`the IBAN ${iban} is already one of the company's accounts`, 'DUPLICATE_BANK_ACCOUNT');
  const account: BankAccountDoc = {
    id: Math.max(0, ...accounts.map((a) => a.id)) + 1,
    iban: iban!,
    bic,
    bankName: input.bank_name,
    accountHolder: input.account_holder,
    isDefault: input.is_default === true || accounts.length === 0,
    createdAt: deps.now(),
  };
  if (account.isDefault) for (const a of accounts) a.isDefault = false;
  accounts.push(account);
  await saveAccounts(deps, c, accounts, 'bank_accounts');
  return account;
}

export async function getBankAccount(deps: CompanyDeps, companyId: string, id: number): Promise<BankAccountDoc> {
  const account = bankAccountsOf(await load(deps, companyId)).find((a) => a.id === id);
  if (!account) throw notFound(`bank account ${id}`);
  return account;
}

export async function updateBankAccount(
  deps: CompanyDeps,
  companyId: string,
  id: number,
  input: BankAccountUpdate,
): Promise<BankAccountDoc> {
  const c = await load(deps, companyId);
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
  if (input.is_default === true) for (const a of accounts) a.isDefault = a.id === id;
  await saveAccounts(deps, c, accounts, 'bank_accounts');
  return account;
}

/** DELETE: the default passes to the oldest remaining account; without any, validation asks for one. */
export async function deleteBankAccount(deps: CompanyDeps, companyId: string, id: number) {
  const c = await load(deps, companyId);
  const accounts = bankAccountsOf(c)
    .filter((a) => a.id !== id)
    .map((a) => ({ ...a }));
  if (accounts.length === bankAccountsOf(c).length) throw notFound(`bank account ${id}`);
  await saveAccounts(deps, c, accounts, 'bank_accounts');
}
