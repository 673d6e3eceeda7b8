import { z } from 'zod';
import { LanguageCode } from './languages';
import { PeppolIdInput } from './customers';
import { safeText } from './safe-text';
import { isIcdCode } from '../party-identifiers';

/** Company data a real company enters about itself (the seller on every invoice). */
const Text = (max: number) => safeText(z.string().trim().min(1).max(max));
/** Optional single-line text: no control characters, no bidirectional overrides (safe-text.ts). */
const Line = (max: number) => safeText(z.string().trim().max(max));

export const CompanyAddressInput = z.object({
  line1: Text(200),
  line2: Line(200).nullable().optional(),
  postal_code: Text(20),
  city: Text(100),
  country_code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code such as DE'),
});

/** An ISO 6523 ICD code (4 digits) EN 16931 accepts as identifier scheme (BR-CL-10, BR-CL-11). */
const IcdScheme = z
  .string()
  .trim()
  .refine((v) => /^\d{4}$/.test(v) && isIcdCode(v), { message: 'an ISO 6523 ICD code of 4 digits (0002 to 0248), e.g. 0088 for a GLN' });

/**
 * PUT /company/: JSON Merge Patch, only the fields sent change; `null` removes an optional value (vat_id,
 * tax_number, website, contact data, defaults). Required data (legal_name, trading_name, address) and the
 * settings with a default cannot be removed: null for them is a 400 naming the field.
 */
export const CompanyProfileUpdate = z
  .object({
    legal_name: Text(200).optional().meta({ description: 'the seller name on invoices (BT-27)' }),
    trading_name: Text(200).optional(),
    address: CompanyAddressInput.optional(),
    vat_id: Line(20).nullable().optional().meta({ description: 'USt-IdNr. (BT-31); null removes it' }),
    tax_number: Line(30).nullable().optional().meta({ description: 'Steuernummer (BT-32); null removes it' }),
    peppol_id: PeppolIdInput.nullable()
      .optional()
      .meta({ description: 'the seller Peppol participant id EAS:identifier (BT-34); null removes it', example: '0088:4035811991021' }),
    registration_court: Line(100).nullable().optional(),
    registration_id: Line(50).nullable().optional().meta({
      description:
        'legal registration identifier (BT-30), e.g. the commercial register entry HRB 12345; identifies the seller (BR-CO-26) when there is no vat_id; null removes it',
    }),
    registration_id_scheme: IcdScheme.nullable().optional().meta({
      description:
        'ISO 6523 ICD scheme of registration_id (BT-30-1), e.g. 0002 (FR SIREN), 0106 (NL KvK), 0192 (NO organisation number); leave it out for a register without ICD code such as the German Handelsregister; null removes it',
      example: '0106',
    }),
    seller_identifier: Line(100).nullable().optional().meta({
      description:
        'seller identifier (BT-29), e.g. a GLN with seller_identifier_scheme 0088, or without scheme an identifier the buyer knows (such as the supplier number it gave you); identifies the seller (BR-CO-26) when there is no vat_id, e.g. a Kleinunternehmer with only a tax_number; null removes it',
      example: '4000001000005',
    }),
    seller_identifier_scheme: IcdScheme.nullable().optional().meta({
      description: 'ISO 6523 ICD scheme of seller_identifier (BT-29-1), e.g. 0088 (GLN), 0060 (D-U-N-S); null removes it',
      example: '0088',
    }),
    managing_directors: z.array(Text(100)).max(10).nullable().optional().meta({ description: 'null removes them all' }),
    contact_name: Line(100)
      .nullable()
      .optional()
      .meta({ description: 'the seller contact on invoices (BT-41; XRechnung requires it with phone and email)' }),
    email: z.email().max(254).nullable().optional(),
    phone: Line(40).nullable().optional(),
    website: z.url().max(200).nullable().optional(),
    default_language: LanguageCode.optional(),
    payment_term_days: z
      .number()
      .int()
      .min(0)
      .max(365)
      .optional()
      .meta({ description: 'used when no payment term applies (prefer default_payment_term_id)' }),
    small_business: z.boolean().optional().meta({ description: 'Kleinunternehmer (§ 19 UStG): invoices carry no VAT and the legal note' }),
    default_template_id: z
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1)
      .nullable()
      .optional(),
    default_payment_term_id: z
      .number()
      .int()
      .positive()
      .max(2 ** 31 - 1)
      .nullable()
      .optional()
      .meta({ description: 'the payment term of customers that name none (see /company/payment-terms)' }),
  })
  .meta({ id: 'CompanyProfileUpdate' });
export type CompanyProfileUpdate = z.output<typeof CompanyProfileUpdate>;

export const BankAccountInput = z
  .object({
    iban: z.string().trim().max(50).meta({ description: 'checked: country length and checksum; spaces and lower case are normalised' }),
    bic: z.string().trim().max(11).optional(),
    bank_name: Line(100).optional(),
    account_holder: Line(200).optional().meta({ description: 'default: the legal name' }),
    is_default: z.boolean().optional().meta({ description: 'the account printed on invoices (the first account is the default)' }),
  })
  .meta({ id: 'BankAccountInput' });
export type BankAccountInput = z.output<typeof BankAccountInput>;

export const BankAccountUpdate = BankAccountInput.partial().meta({ id: 'BankAccountUpdate' });
export type BankAccountUpdate = z.output<typeof BankAccountUpdate>;

export const BankAccount = z
  .object({
    id: z.number().int(),
    iban: z.string().meta({ description: 'electronic format' }),
    iban_formatted: z.string(),
    bic: z.string().nullable(),
    bank_name: z.string().nullable(),
    account_holder: z.string().nullable(),
    is_default: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'BankAccount' });

/** Skonto: a discount for payment within `days` days. */
export const EarlyPaymentDiscount = z.object({
  percent: z.number().gt(0).max(100).multipleOf(0.01).meta({ description: 'e.g. 2 (2 %); at most two decimals' }),
  days: z.number().int().min(1).max(365),
});

const termFields = {
  name: Text(100),
  days: z.number().int().min(0).max(365).meta({ description: 'days from the invoice date to the due date (BT-9)' }),
  discount: EarlyPaymentDiscount.nullable().optional().meta({ description: 'early-payment discount (Skonto); null removes it' }),
  text_de: safeText(z.string().trim().max(500), { multiLine: true }).nullable().optional().meta({
    description:
      'BT-20 in German; placeholders {due_date}, {discount_date}, {discount_percent}, {discount_amount}, {days}; generated when absent',
  }),
  text_en: safeText(z.string().trim().max(500), { multiLine: true })
    .nullable()
    .optional()
    .meta({ description: 'BT-20 in English; same placeholders' }),
};
const discountWithinTerm = (t: { days?: number; discount?: { days: number } | null }, ctx: z.RefinementCtx) => {
  if (t.discount && t.days !== undefined && t.discount.days >= t.days)
    ctx.addIssue({ code: 'custom', path: ['discount', 'days'], message: 'must be fewer days than the term itself' });
};
export const PaymentTermInput = z.object(termFields).superRefine(discountWithinTerm).meta({ id: 'PaymentTermInput' });
export type PaymentTermInput = z.output<typeof PaymentTermInput>;
export const PaymentTermUpdate = z.object(termFields).partial().superRefine(discountWithinTerm).meta({ id: 'PaymentTermUpdate' });
export type PaymentTermUpdate = z.output<typeof PaymentTermUpdate>;
export const PaymentTerm = z
  .object({
    id: z.number().int(),
    name: z.string(),
    days: z.number().int(),
    discount: EarlyPaymentDiscount.nullable(),
    text_de: z.string().nullable(),
    text_en: z.string().nullable(),
    is_default: z.boolean().meta({ description: "the company's default_payment_term_id" }),
  })
  .meta({ id: 'PaymentTerm' });
/** Most payment terms a company keeps. */
export const MAX_PAYMENT_TERMS = 50;
