import type { CompanyId } from '@inv/contracts';

/** A company as stored (db/companies.ts keeps it in `companies`): the profile, its bank accounts and payment terms. */
export interface CompanyDoc {
  _id: CompanyId;
  name: string;
  legalName: string;
  address: { line1: string; line2?: string; postalCode: string; city: string; countryCode: string };
  vatId?: string;
  taxNumber?: string;
  /** Peppol participant id `EAS:identifier` (BT-34), checked on input. */
  peppolId?: string;
  /** BT-30 and its ISO 6523 ICD scheme (BT-30-1). */
  registrationId?: string;
  registrationIdScheme?: string;
  registrationCourt?: string;
  /** BT-29 seller identifier and its ISO 6523 ICD scheme (BT-29-1). */
  sellerIdentifier?: string;
  sellerIdentifierScheme?: string;
  iban?: string;
  bic?: string;
  bankName?: string;
  contactName?: string;
  email?: string;
  phone?: string;
  website?: string;
  managingDirectors?: string[];
  defaultLanguage?: 'de' | 'en';
  bankAccounts?: BankAccountDoc[];
  /**
   * Profile fields (document names) that still hold the demo bootstrap's values (bootstrap-demo-company.ts). A field
   * the company sets leaves the list; a PUT /company/ that sets legal_name removes every value still listed.
   */
  demoFields?: string[];
  /** Bumped on every bank-account change: concurrent changes cannot overwrite each other. */
  bankAccountsRev?: number;
  plan: 'free' | 'pro';
  /** Version of the last plan change applied (company.plan-changed.v1 from quota-service, which owns plans). */
  planVersion?: number;
  /** The e-mail address the operator gave as the owner's when creating the company. */
  ownerEmail?: string;
  /** Bumped by every member change (see bumpMembersRev). */
  membersRev?: number;
  paymentTermDays: number;
  /** Absent until the company first changes its payment terms: the defaults apply (domain/payment-term-rules.ts). */
  paymentTerms?: PaymentTermDoc[];
  /** Bumped on every payment-term change (optimistic check; orders the announcements). */
  paymentTermsRev?: number;
  /** null: the company chose no default term (PUT /company/ {"default_payment_term_id": null}). */
  defaultPaymentTermId?: number | null;
  defaultTemplateId?: number;
  smallBusiness?: boolean;
  /** The letterhead logo as stored (resized), its object under `${companyId}/company/`. */
  logo?: {
    key: string;
    contentType: 'image/png' | 'image/jpeg';
    width: number;
    height: number;
    size: number;
    sha256: string;
    uploadedAt: Date;
  };
  /** The VIES verdict on vatId (vat.checked.v1 without a customer). */
  vatCheck?: { vatId: string; status: string; checkedAt: string; name?: string; consultationNumber?: string; fault?: string };
  createdAt: Date;
  updatedAt?: Date;
}

export interface PaymentTermDoc {
  id: number;
  name: string;
  days: number;
  discount?: { percent: number; days: number };
  textDe?: string;
  textEn?: string;
}

export interface BankAccountDoc {
  id: number;
  iban: string; // electronic format
  bic?: string;
  bankName?: string;
  accountHolder?: string;
  isDefault: boolean;
  /** The demo bootstrap's account: the company's first own account replaces it, and so does its own legal name. */
  demo?: boolean;
  createdAt: Date;
}
