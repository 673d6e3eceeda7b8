import { electronicAddressOf } from '@inv/contracts';
import type { CompanyDoc } from '../db/companies';
import { defaultBankAccount } from '../domain/company-profile';

/** The seller as frozen onto an invoice at finalization (EN 16931 BG-4 and payment instructions). */
export function sellerProfileOf(company: CompanyDoc) {
  return {
    found: true,
    seller: {
      name: company.legalName,
      vatId: company.vatId,
      taxNumber: company.taxNumber,
      registrationId: company.registrationId,
      registrationCourt: company.registrationCourt,
      electronicAddress: electronicAddressOf({ vatId: company.vatId, email: company.email }),
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
  };
}

function paymentOf(company: CompanyDoc) {
  const account = defaultBankAccount(company);
  return account ? { meansCode: '58' as const, iban: account.iban, bic: account.bic, accountName: account.accountHolder ?? company.legalName } : undefined;
}
