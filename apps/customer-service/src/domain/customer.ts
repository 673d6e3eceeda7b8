import { checkVatIdSyntax, electronicAddressOf, isNonEuTaxId, peppolEndpoint, type messages } from '@inv/contracts';
import type { z } from 'zod';
import type { AddressDoc, AddressType, CustomerDoc, VatStatus } from './customer-doc';

export type BillingSnapshot = z.input<(typeof messages.rpc)['customer.billing-snapshot.v1']['response']>;

export const CUSTOMER_NUMBER_FIRST = 10000;
export const CUSTOMER_NUMBER_LAST = 69999;

/** "Acme GmbH" for companies, "Erika Mustermann" for people. */
export function displayName(c: Pick<CustomerDoc, 'contactType' | 'organizationName' | 'firstName' | 'lastName'>): string {
  if (c.contactType === 'B2B' && c.organizationName) return c.organizationName;
  const person = [c.firstName, c.lastName].filter(Boolean).join(' ');
  return person || c.organizationName || '';
}

/**
 * The billing address: the default billing address, else the first billing address. An address
 * created without a type is a billing address (the SDK example adds one with only is_default: true).
 */
export function billingAddressOf(addresses: readonly AddressDoc[]): AddressDoc | undefined {
  const billing = addresses.filter((a) => a.type === 'billing');
  return billing.find((a) => a.isDefault) ?? billing[0];
}

/**
 * The VAT status finalization reads: only B2B customers with an EU VAT ID are checked; the tax number of a buyer in
 * Norway, Switzerland or the United Kingdom is not known to VIES and stays `not_checked` (no confirmation needed).
 */
export function vatStatusOf(c: Pick<CustomerDoc, 'contactType' | 'vatId' | 'vat'>): VatStatus {
  if (c.contactType !== 'B2B' || !c.vatId || isNonEuTaxId(c.vatId)) return 'not_checked';
  if (c.vat.vatId !== c.vatId) return 'pending';
  return c.vat.status;
}

/** A check is due when a B2B customer gets a VAT ID, changes it, or becomes B2B while having one. */
export function needsVatCheck(
  before: Pick<CustomerDoc, 'contactType' | 'vatId'> | undefined,
  after: Pick<CustomerDoc, 'contactType' | 'vatId'>,
): boolean {
  if (after.contactType !== 'B2B' || !after.vatId || isNonEuTaxId(after.vatId)) return false;
  return !before || before.vatId !== after.vatId || before.contactType !== 'B2B';
}

/** Marker in `vat.fault` of a VAT ID refused by its check digits (never sent to VIES). */
export const CHECKSUM_FAULT = 'CHECKSUM';

/** A VAT ID of the right shape whose check digits fail: invalid without asking VIES. */
export function failsCheckDigits(vatId: string): boolean {
  const syntax = checkVatIdSyntax(vatId);
  return !syntax.ok && syntax.checkDigitFailed === true;
}

/** Sets `isDefault` on the address `id` and clears it on the other addresses of the same type. */
export function withDefault(addresses: readonly AddressDoc[], id: number, type: AddressType): AddressDoc[] {
  return addresses.map((a) => (a.id === id ? { ...a, isDefault: true } : a.type === type && a.isDefault ? { ...a, isDefault: false } : a));
}

const languageCode = (l: CustomerDoc['language']) => (l === 'English' ? 'en' : 'de');

/** The buyer as the invoice freezes it (EN 16931 party) plus what invoice-service needs for drafts and finalization. */
export function billingSnapshotOf(c: CustomerDoc): BillingSnapshot {
  const address = billingAddressOf(c.addresses);
  const name = displayName(c);
  const contactName =
    c.contactType === 'B2B' && (c.firstName || c.lastName) ? [c.firstName, c.lastName].filter(Boolean).join(' ') : undefined;
  const contact = contactName || c.phone || c.email ? { name: contactName, phone: c.phone, email: c.email } : undefined;
  return {
    found: true,
    buyer: {
      name,
      firstName: c.contactType === 'B2C' ? c.firstName : undefined,
      lastName: c.contactType === 'B2C' ? c.lastName : undefined,
      vatId: c.contactType === 'B2B' ? c.vatId : undefined,
      // BT-49: the Peppol participant id the customer gave, before any address derived from the VAT ID or e-mail
      electronicAddress: c.peppolId ? peppolEndpoint(c.peppolId) : electronicAddressOf({ vatId: c.vatId, email: c.email }),
      fiscalCode: c.codiceFiscale,
      partitaIva: c.partitaIva,
      sdiCode: c.codiceDestinatario,
      pec: c.pec,
      // Without a billing address the party is still sent (with an empty address) so that validation names the gap.
      address: address
        ? {
            line1: address.addressLine1,
            line2: address.addressLine2,
            city: address.city,
            postalCode: address.postalCode,
            subdivision: address.stateProvince,
            countryCode: address.countryCode,
          }
        : { line1: '', city: '', countryCode: 'DE' },
      contact,
    },
    hasBillingAddress: address !== undefined,
    customerNumber: c.customerNumber,
    contactType: c.contactType,
    language: languageCode(c.language),
    defaultTemplateId: c.defaultTemplateId,
    paymentTermId: c.paymentTermId,
    buyerReference: c.buyerReference,
    vatStatus: vatStatusOf(c),
  };
}
