import { z } from 'zod';
import { ContactType, Language, Salutation } from './customers';
import { Day, Money, Timestamp } from './response-fields';

/** Response bodies of customer-service: customers, their addresses and VAT checks, overview and statement (see responses.ts). */

export const VatCheck = z
  .object({
    status: z.enum(['not_checked', 'pending', 'valid', 'invalid', 'unavailable']),
    vat_id: z.string().nullable(),
    checked_at: Timestamp.nullable(),
    request_date: Day.nullable(),
    name: z.string().nullable(),
    address: z.string().nullable(),
    consultation_number: z.string().nullable(),
    fault: z.string().nullable().meta({ description: 'VIES fault code of the last answer (e.g. MS_UNAVAILABLE)' }),
    reason: z.enum(['checksum', 'outside_eu']).nullable().meta({
      description:
        '"checksum": the check digits fail, so the ID is invalid without asking VIES; "outside_eu": the tax number of a buyer in Norway, Switzerland or the United Kingdom, which VIES does not know (status not_checked, no confirmation needed at finalization)',
    }),
  })
  .meta({ id: 'VatCheck' });

export const Address = z
  .object({
    id: z.number().int(),
    type: z.enum(['billing', 'shipping']),
    is_default: z.boolean(),
    address_line_1: z.string(),
    address_line_2: z.string().nullable(),
    postal_code: z.string().nullable(),
    city: z.string(),
    state_province: z.string().nullable(),
    country_code: z.string(),
  })
  .meta({ id: 'Address' });

export const Customer = z
  .object({
    id: z.number().int(),
    customer_number: z.number().int(),
    contact_type: ContactType,
    organization_name: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    salutation: Salutation.nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    vat_id: z.string().nullable(),
    language: Language.nullable(),
    payment_term_id: z.number().int().nullable(),
    default_ftl_template_id: z.number().int().nullable(),
    buyer_reference: z.string().nullable(),
    peppol_id: z.string().nullable().meta({ description: 'Peppol participant id EAS:identifier (BT-49)', example: '0192:987654325' }),
    codice_destinatario: z.string().nullable(),
    pec: z.string().nullable(),
    codice_fiscale: z.string().nullable(),
    partita_iva: z.string().nullable(),
    is_active: z.boolean(),
    vat_check: VatCheck,
    addresses: z.array(Address).optional().meta({ description: 'on GET /customer/{id} only' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Customer' });

export const FinancialOverview = z
  .object({
    customer_id: z.number().int(),
    currency: z.literal('EUR'),
    outstanding: z.object({ total: Money, count: z.number().int() }),
    overdue: z.object({ total: Money, count: z.number().int() }),
    paid: z.object({ total: Money, count: z.number().int() }),
    credit_notes: z.object({ total: Money, count: z.number().int() }),
    balance: Money,
  })
  .meta({ id: 'FinancialOverview' });

export const Statement = z
  .object({
    customer_id: z.number().int(),
    currency: z.literal('EUR'),
    from: Day.nullable(),
    to: Day.nullable(),
    opening_balance: Money,
    entries: z.array(
      z.object({
        date: Day,
        document_number: z.string(),
        type: z.string().meta({
          description:
            '`invoice`, `credit_note`, `payment` (money received), `discount` (Skonto granted with a payment), `refund` (a credit note paid out), `adjustment` (a cancellation), `reminder_fee` (a reminder fee or the § 288 (5) BGB flat fee, a debit on the reminder date) or `interest` (default interest charged with a reminder: only the increase over the previous reminder of the invoice)',
        }),
        debit: Money.nullable(),
        credit: Money.nullable(),
        balance: Money,
      }),
    ),
    closing_balance: Money,
  })
  .loose()
  .meta({ id: 'Statement' });
