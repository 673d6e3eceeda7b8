import type { ApiKeyDoc } from '../db/api-keys';
import type { AuditEntryDoc } from '../db/audit-log';
import type { MemberDoc } from '../db/members';
import type { BankAccountDoc, CompanyDoc, PaymentTermDoc } from '../domain/company-doc';
import { defaultPaymentTerm } from '../domain/payment-term-rules';
import { bankAccountsOf } from '../domain/profile-rules';

/** How account-service's answers show what it keeps (snake_case, absent fields as null). */

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

export const presentPaymentTerm = (c: CompanyDoc) => (t: PaymentTermDoc) => ({
  id: t.id,
  name: t.name,
  days: t.days,
  discount: t.discount ? { percent: t.discount.percent, days: t.discount.days } : null,
  text_de: t.textDe ?? null,
  text_en: t.textEn ?? null,
  is_default: defaultPaymentTerm(c)?.id === t.id,
});

export const presentMember = (m: MemberDoc) => ({
  id: String(m._id),
  email: m.email,
  role: m.role,
  status: m.status,
  created_at: m.createdAt.toISOString(),
  invitation_expires_at: m.invitationExpiresAt?.toISOString() ?? null,
});

/** An audit log entry as GET /audit-log/ lists it. */
export const presentAuditEntry = (e: AuditEntryDoc) => ({
  seq: e.seq,
  at: e.at,
  action: e.action,
  resource_type: e.resourceType,
  resource_id: e.resourceId ?? null,
  fields: e.fields,
  actor: {
    key_id: e.actor?.keyId ?? null,
    key_name: e.actor?.keyName ?? null,
    member_id: e.actor?.memberId ?? null,
    role: e.actor?.role ?? null,
    request_id: e.actor?.requestId ?? null,
    client_ip: e.actor?.clientIp ?? null,
  },
  prev_hash: e.prevHash,
  hash: e.hash,
});

/** An API key as GET /api-keys/ lists it (never its secret or hash). */
export const presentApiKey = (k: ApiKeyDoc) => ({
  id: String(k._id),
  name: k.name,
  prefix: k.prefix,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
  revoked_reason: k.revokedAt ? (k.revokedReason ?? 'revoked') : null,
  role: k.role ?? 'admin',
  active: !k.revokedAt,
});

/** The company's logo as PUT and GET /company/logo describe it. */
export const presentLogo = (logo: NonNullable<CompanyDoc['logo']>) => ({
  content_type: logo.contentType,
  width: logo.width,
  height: logo.height,
  size: logo.size,
  sha256: logo.sha256,
  uploaded_at: new Date(logo.uploadedAt).toISOString(),
});
