import { z } from 'zod';
import { ApiKeyModeSchema } from './api-key-mode';
import { Day, Timestamp } from './response-fields';

/** Response bodies of the company's account: logo, API keys, profile, quota (see responses.ts). */

export const CompanyLogo = z
  .object({
    url: z.string().meta({ description: 'presigned; valid for expires_in seconds' }),
    content_type: z.enum(['image/png', 'image/jpeg']),
    width: z.number().int().meta({ description: 'pixels after resizing to the letterhead box (at most 709 x 260, 60 x 22 mm at 300 dpi)' }),
    height: z.number().int(),
    size: z.number().int(),
    sha256: z.string(),
    uploaded_at: Timestamp,
    expires_in: z.number().int(),
  })
  .meta({ id: 'CompanyLogo' });

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    role: z.string().meta({ description: 'owner, admin, member or viewer: the permissions the key carries' }),
    mode: ApiKeyModeSchema,
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
    active: z.boolean(),
    revoked_at: Timestamp.nullable(),
    revoked_reason: z
      .enum(['revoked', 'plan_downgrade'])
      .nullable()
      .meta({ description: 'plan_downgrade: deactivated when the company left the Pro plan (an upgrade does not reactivate it)' }),
  })
  .loose()
  .meta({ id: 'ApiKey' });
export const CreatedApiKey = z
  .object({
    message: z.string(),
    id: z.string(),
    name: z.string(),
    role: z.string(),
    mode: ApiKeyModeSchema,
    prefix: z.string(),
    created_at: Timestamp,
    key: z.string().meta({ description: 'the secret: shown only in this answer (`ak_live_…` or `ak_test_…`)' }),
  })
  .meta({ id: 'CreatedApiKey' });
export const Company = z
  .object({
    id: z.string(),
    name: z.string(),
    legal_name: z.string(),
    trading_name: z.string(),
    address: z.object({
      line1: z.string(),
      line2: z.string().nullable(),
      postal_code: z.string(),
      city: z.string(),
      country_code: z.string(),
    }),
    vat_id: z.string().nullable(),
    tax_number: z.string().nullable(),
    peppol_id: z.string().nullable().meta({ description: 'Peppol participant id EAS:identifier (BT-34)', example: '0088:4035811991021' }),
    registration_court: z.string().nullable(),
    registration_id: z.string().nullable().meta({ description: 'legal registration identifier (BT-30)' }),
    registration_id_scheme: z.string().nullable().meta({ description: 'its ISO 6523 ICD scheme (BT-30-1)' }),
    seller_identifier: z.string().nullable().meta({ description: 'seller identifier (BT-29)' }),
    seller_identifier_scheme: z.string().nullable().meta({ description: 'its ISO 6523 ICD scheme (BT-29-1)' }),
    managing_directors: z.array(z.string()),
    contact_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    website: z.string().nullable(),
    default_language: z.enum(['de', 'en']),
    default_currency: z.literal('EUR'),
    payment_term_days: z.number().int().meta({ description: 'used when neither the customer nor the company names a payment term' }),
    default_payment_term_id: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'the payment term of customers that name none (GET /company/payment-terms)' }),
    default_template_id: z.number().int().nullable(),
    has_logo: z.boolean().meta({ description: 'GET /company/logo serves it' }),
    small_business: z
      .boolean()
      .meta({ description: 'Kleinunternehmer (§ 19 UStG): invoices are issued without VAT and carry the legal note' }),
    vat_check: z
      .object({
        status: z.enum(['pending', 'valid', 'invalid', 'unavailable']),
        checked_at: z.string().nullable(),
        name: z.string().nullable(),
        consultation_number: z.string().nullable(),
        fault: z.string().nullable(),
      })
      .nullable()
      .meta({ description: 'the VIES check of vat_id (pending until the answer arrives; null without a VAT ID)' }),
    plan: z.enum(['free', 'pro']),
    bank_accounts: z.array(
      z.object({
        id: z.number().int(),
        iban: z.string(),
        iban_formatted: z.string(),
        bic: z.string().nullable(),
        bank_name: z.string().nullable(),
        account_holder: z.string().nullable(),
        is_default: z.boolean(),
        created_at: Timestamp,
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Company' });

export const QuotaUsage = z
  .object({ plan: z.enum(['free', 'pro']), used: z.number().int(), limit: z.number().int(), reset_date: Day })
  .meta({ id: 'QuotaUsage', example: { plan: 'pro', used: 12, limit: 100, reset_date: '2026-12-01' } });
