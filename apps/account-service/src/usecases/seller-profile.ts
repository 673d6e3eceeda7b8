import { electronicAddressOf, peppolEndpoint } from '@inv/contracts';
import type { CompanyDoc } from '../domain/company-doc';
import { defaultBankAccount } from '../domain/profile-rules';
import { defaultPaymentTerm, paymentTermsOf } from '../domain/payment-term-rules';

/** The seller as frozen onto an invoice at finalization (EN 16931 BG-4 and payment instructions). */
export function sellerProfileOf(company: CompanyDoc) {
  return {
    found: true,
    seller: {
      name: company.legalName,
      vatId: company.vatId,
      taxNumber: company.taxNumber,
      registrationId: company.registrationId,
      registrationScheme: company.registrationId ? company.registrationIdScheme : undefined,
      registrationCourt: company.registrationCourt,
      // BT-29: with BT-30 or the VAT ID it identifies the seller (BR-CO-26), e.g. a Kleinunternehmer without VAT ID
      identifier: company.sellerIdentifier ? { value: company.sellerIdentifier, scheme: company.sellerIdentifierScheme } : undefined,
      managingDirectors: company.managingDirectors?.length ? [...company.managingDirectors] : undefined,
      // BT-34: the company's Peppol participant id, before any address derived from the VAT ID or e-mail
      electronicAddress: company.peppolId
        ? peppolEndpoint(company.peppolId)
        : electronicAddressOf({ vatId: company.vatId, email: company.email }),
      address: {
        line1: company.address.line1,
        line2: company.address.line2,
        city: company.address.city,
        postalCode: company.address.postalCode,
        countryCode: company.address.countryCode,
      },
      contact: { name: company.contactName, phone: company.phone, email: company.email },
    },
    payment: paymentOf(company),
    paymentTermDays: company.paymentTermDays,
    paymentTerms: paymentTermsOf(company).map((t) => ({
      id: t.id,
      days: t.days,
      discount: t.discount,
      textDe: t.textDe,
      textEn: t.textEn,
    })),
    defaultPaymentTermId: defaultPaymentTerm(company)?.id,
    smallBusiness: company.smallBusiness ?? false,
    logo: company.logo ? { key: company.logo.key, contentType: company.logo.contentType } : undefined,
    defaultTemplateId: company.defaultTemplateId,
    missing: missingForInvoices(company),
  };
}

/** Company fields an invoice needs (BR-06, BR-08..BR-10, and BR-CO-26 / § 14 UStG: a VAT ID or a tax number). */
function missingForInvoices(c: CompanyDoc): string[] {
  const missing: string[] = [];
  if (!c.legalName?.trim()) missing.push('legal_name');
  if (!c.address?.line1?.trim()) missing.push('address.line1');
  if (!c.address?.city?.trim()) missing.push('address.city');
  if (!c.address?.postalCode?.trim()) missing.push('address.postal_code');
  if (!c.vatId && !c.taxNumber) missing.push('vat_id');
  return missing;
}

function paymentOf(company: CompanyDoc) {
  const account = defaultBankAccount(company);
  return account
    ? { meansCode: '58' as const, iban: account.iban, bic: account.bic, accountName: account.accountHolder ?? company.legalName }
    : undefined;
}
