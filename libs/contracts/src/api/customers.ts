import { z } from 'zod';
import { IntId } from './common';

export const Salutation = z.enum(['MR', 'MRS', 'MS', 'OTHER']).meta({ description: 'uppercase only' });
export const ContactType = z.enum(['B2B', 'B2C']);
export const Language = z.enum(['English', 'German']);

const customerFields = {
  organization_name: z.string().trim().min(1).max(200).optional(),
  first_name: z.string().trim().min(1).max(100).optional(),
  last_name: z.string().trim().min(1).max(100).optional(),
  email: z.email().max(254).optional(),
  contact_type: ContactType.optional(),
  vat_id: z.string().trim().min(4).max(20).optional().meta({ description: 'EU VAT ID with country prefix; validated against VIES for B2B customers' }),
  language: Language.optional(),
  payment_term_id: IntId.optional(),
  default_ftl_template_id: IntId.optional(),
  salutation: Salutation.optional(),
  is_active: z.boolean().optional(),
  phone: z.string().max(50).optional(),
  buyer_reference: z.string().max(200).optional().meta({ description: 'default buyer reference / Leitweg-ID copied to new invoices' }),
};

export const CustomerCreate = z
  .object({ ...customerFields, contact_type: ContactType.default('B2B') })
  .superRefine((c, ctx) => {
    if (c.contact_type === 'B2B' && !c.organization_name) {
      ctx.addIssue({ code: 'custom', path: ['organization_name'], message: 'required for B2B customers' });
    }
    if (c.contact_type === 'B2C') {
      if (!c.first_name) ctx.addIssue({ code: 'custom', path: ['first_name'], message: 'required for B2C customers' });
      if (!c.last_name) ctx.addIssue({ code: 'custom', path: ['last_name'], message: 'required for B2C customers' });
    }
  })
  .meta({ id: 'CustomerCreate' });
export type CustomerCreate = z.output<typeof CustomerCreate>;

export const CustomerUpdate = z.object(customerFields).partial().meta({ id: 'CustomerUpdate' });
export type CustomerUpdate = z.output<typeof CustomerUpdate>;

export const AddressType = z.enum(['billing', 'shipping']);
export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2 code')
  .transform((s) => s.toUpperCase());

export const AddressCreate = z
  .object({
    address_line_1: z.string().trim().min(1).max(200),
    city: z.string().trim().min(1).max(100),
    country_code: CountryCode,
    company: z.string().max(200).optional(),
    address_line_2: z.string().max(200).optional(),
    postal_code: z.string().trim().max(20).optional(),
    state_province: z.string().max(100).optional(),
    is_default: z.boolean().optional(),
    type: AddressType.default('billing').meta({ description: 'billing (default) or shipping' }),
  })
  .meta({ id: 'AddressCreate' });
export type AddressCreate = z.output<typeof AddressCreate>;

export const CustomerListQuery = z.object({
  q: z.string().max(200).optional(),
  email: z.string().max(254).optional(),
  contact_type: ContactType.optional(),
  is_active: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
