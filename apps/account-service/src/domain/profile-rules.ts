import type { BankAccountDoc, CompanyDoc } from '../db/companies';
import { defaultPaymentTerm } from './payment-term-rules';

/** The company as the API shows it (snake_case; bank accounts with the default first). */
export function presentCompany(c: CompanyDoc) {
  return {
    id: c._id,
    name: c.name,
    legal_name: c.legalName,
    trading_name: c.name,
    address: {
      line1: c.address.line1,
      line2: c.address.line2 ?? null,
      postal_code: c.address.postalCode,
      city: c.address.city,
      country_code: c.address.countryCode,
    },
    vat_id: c.vatId ?? null,
    tax_number: c.taxNumber ?? null,
    peppol_id: c.peppolId ?? null,
    registration_court: c.registrationCourt ?? null,
    registration_id: c.registrationId ?? null,
    registration_id_scheme: c.registrationIdScheme ?? null,
    seller_identifier: c.sellerIdentifier ?? null,
    seller_identifier_scheme: c.sellerIdentifierScheme ?? null,
    managing_directors: c.managingDirectors ?? [],
    contact_name: c.contactName ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
    website: c.website ?? null,
    default_language: c.defaultLanguage ?? 'de',
    default_currency: 'EUR',
    payment_term_days: c.paymentTermDays,
    default_payment_term_id: defaultPaymentTerm(c)?.id ?? null,
    default_template_id: c.defaultTemplateId ?? null,
    has_logo: c.logo !== undefined,
    small_business: c.smallBusiness ?? false,
    vat_check: c.vatId
      ? c.vatCheck && c.vatCheck.vatId === c.vatId
        ? {
            status: c.vatCheck.status,
            checked_at: c.vatCheck.checkedAt,
            name: c.vatCheck.name ?? null,
            consultation_number: c.vatCheck.consultationNumber ?? null,
            fault: c.vatCheck.fault ?? null,
          }
        : { status: 'pending', checked_at: null, name: null, consultation_number: null, fault: null }
      : null,
    plan: c.plan,
    bank_accounts: bankAccountsOf(c).map(presentBankAccount),
    created_at: c.createdAt.toISOString(),
    updated_at: (c.updatedAt ?? c.createdAt).toISOString(),
  };
}

const friendly = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');

export const presentBankAccount = (b: BankAccountDoc) => ({
  id: b.id,
  iban: b.iban,
  iban_formatted: friendly(b.iban),
  bic: b.bic ?? null,
  bank_name: b.bankName ?? null,
  account_holder: b.accountHolder ?? null,
  is_default: b.isDefault,
  created_at: b.createdAt.toISOString(),
});

/** The company's bank accounts; a company bootstrapped with a single IBAN shows it as account 1. */
export function bankAccountsOf(c: CompanyDoc): BankAccountDoc[] {
  if (c.bankAccountsRev !== undefined) return c.bankAccounts ?? [];
  return c.iban
    ? [{ id: 1, iban: c.iban, bic: c.bic, bankName: c.bankName, accountHolder: c.legalName, isDefault: true, createdAt: c.createdAt }]
    : [];
}

/** The account printed on invoices (payment means 58, SEPA credit transfer). */
export const defaultBankAccount = (c: CompanyDoc) => bankAccountsOf(c).find((b) => b.isDefault) ?? bankAccountsOf(c)[0];
