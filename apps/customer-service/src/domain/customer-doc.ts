import type { CompanyId } from '@inv/contracts';

/** A customer as stored (db/customers.ts keeps it in `customers`), its addresses and VAT check inside. */
export type ContactType = 'B2B' | 'B2C';
export type AddressType = 'billing' | 'shipping';
export type VatStatus = 'valid' | 'invalid' | 'unavailable' | 'pending' | 'not_checked';

export interface AddressDoc {
  id: number;
  type: AddressType;
  isDefault: boolean;
  addressLine1: string;
  addressLine2?: string;
  company?: string;
  postalCode?: string;
  city: string;
  stateProvince?: string;
  countryCode: string;
  createdAt: Date;
}

/** The VAT check state of the customer's current vat_id, with the VIES evidence of the last answer. */
export interface VatCheckDoc {
  status: VatStatus;
  /** The VAT ID this state belongs to; answers for another (older) VAT ID are ignored. */
  vatId?: string;
  requestedAt?: Date;
  checkedAt?: string;
  requestDate?: string;
  name?: string;
  address?: string;
  consultationNumber?: string;
  fault?: string;
}

export interface CustomerDoc {
  /** companyKey(companyId, id): the id alone repeats across companies. */
  _id: string;
  companyId: CompanyId;
  /** The public id. */
  id: number;
  /** 10000-69999, unique per company, never reused: doubles as the debtor account in accounting. */
  customerNumber: number;
  contactType: ContactType;
  organizationName?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  /** Lower-cased e-mail for the exact (case-insensitive) lookup. */
  emailLower?: string;
  vatId?: string;
  language?: 'English' | 'German';
  paymentTermId?: number;
  defaultTemplateId?: number;
  salutation?: 'MR' | 'MRS' | 'MS' | 'OTHER';
  isActive: boolean;
  phone?: string;
  buyerReference?: string;
  /** Peppol participant id `EAS:identifier` (BT-49), checked on input. */
  peppolId?: string;
  /** Italian buyers (FatturaPA): SdI recipient code, certified e-mail, Codice Fiscale, Partita IVA (11 digits). */
  codiceDestinatario?: string;
  pec?: string;
  codiceFiscale?: string;
  partitaIva?: string;
  addresses: AddressDoc[];
  vat: VatCheckDoc;
  /** Bumped by every change of the customer's own fields or addresses: the optimistic concurrency check. */
  rev: number;
  createdAt: Date;
  updatedAt: Date;
}
