import { z } from 'zod';
import { checkNonEuTaxIdSyntax, checkVatIdSyntax, isNonEuTaxId } from '../vat-id';
import { checkCodiceDestinatario, checkCodiceFiscale, checkPartitaIva, checkPeppolId, type IdCheck } from '../participant-ids';

export {
  checkCodiceDestinatario,
  checkCodiceFiscale,
  checkPartitaIva,
  checkPeppolId,
  peppolEndpoint,
  PEPPOL_EAS_CODES,
} from '../participant-ids';
import { IntId, IsoDate, Pagination } from './common';
import { CustomerLanguageInput, LanguageCode } from './languages';
import { safeText } from './safe-text';

export const Salutation = z.enum(['MR', 'MRS', 'MS', 'OTHER']).meta({ description: 'uppercase only' });
export const ContactType = z.enum(['B2B', 'B2C']);
export const Language = z.enum(['English', 'German']);

/**
 * EU VAT ID: the shape of its member state's numbers (prefix, length, characters), stored normalised
 * ("DE 123.456.789" -> "DE123456789"). A number of the right shape whose check digits fail is accepted
 * (the published SDK's quick start uses one): the customer then has VAT status `invalid` (reason
 * `checksum`) without asking VIES, and finalization needs `vat_override_confirmed`.
 * A buyer in Norway, Switzerland or the United Kingdom keeps its own tax number (NO…MVA, CHE…MWST, GB…), written as
 * the buyer VAT identifier BT-48: its format and check digits are checked (a failing one is refused), VIES is not asked.
 */
export const VatIdInput = z
  .string()
  .trim()
  .min(4)
  .max(20)
  .transform((v, ctx) => {
    if (isNonEuTaxId(v)) {
      const other = checkNonEuTaxIdSyntax(v);
      if (other.ok) return other.normalized;
      ctx.addIssue({ code: 'custom', message: other.reason });
      return z.NEVER;
    }
    const syntax = checkVatIdSyntax(v);
    if (!syntax.ok && syntax.checkDigitFailed) return syntax.normalized;
    if (!syntax.ok) {
      ctx.addIssue({
        code: 'custom',
        message: `${syntax.reason}; outside the EU, tax numbers of Norway (NO…MVA), Switzerland (CHE…MWST) and the United Kingdom (GB…) are accepted`,
      });
      return z.NEVER;
    }
    return syntax.normalized;
  })
  .meta({
    description:
      'EU VAT ID with country prefix, validated against VIES for B2B customers; or the tax number of a buyer in Norway (NO987654325MVA), Switzerland (CHE-123.456.788 MWST) or the United Kingdom (GB980780684): format and check digits checked, not sent to VIES (VAT status not_checked); written as buyer VAT identifier BT-48',
  });

/** A string checked (and normalised) by one of the identifier checks of participant-ids.ts: 400 naming the field with the reason. */
const checkedId = (check: (v: string) => IdCheck, max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .transform((v, ctx) => {
      const r = check(v);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.reason });
        return z.NEVER;
      }
      return r.value;
    });

/**
 * Peppol participant id `EAS:identifier` (BT-49 / BT-34 EndpointID with schemeID = EAS): the scheme from the Peppol
 * EAS code list; GLN (0088), Norwegian organisation number (0192) and Belgian enterprise number (0208) with their
 * check digits. Shared by customers and the company profile.
 */
export const PeppolIdInput = checkedId(checkPeppolId, 60).meta({
  description:
    'Peppol participant id EAS:identifier (electronic address BT-49 / BT-34): scheme from the Peppol EAS code list, check digits of 0088 (GLN), 0192 (NO org. number), 0208 (BE enterprise number) checked; used as the Peppol endpoint before any endpoint derived from the VAT ID',
  example: '0192:987654325',
});

/** Italian buyers (FatturaPA): SdI routing and tax identifiers. */
const italianFields = {
  codice_destinatario: checkedId(checkCodiceDestinatario, 7).optional().meta({
    description: 'SdI recipient code (FatturaPA CodiceDestinatario): 7 characters for companies, 6 for public administrations',
    example: 'M5UXCR1',
  }),
  pec: z.email().max(254).optional().meta({
    description: 'certified e-mail (PEC) for SdI delivery when there is no recipient code (FatturaPA PECDestinatario)',
    example: 'fatture@pec.rossi.it',
  }),
  codice_fiscale: checkedId(checkCodiceFiscale, 16).optional().meta({
    description: 'Italian tax code: 16 characters with check character (a person) or 11 digits with check digit (a company)',
    example: 'RSSMRA85T10A562S',
  }),
  partita_iva: checkedId(checkPartitaIva, 13).optional().meta({
    description: 'Italian VAT number, 11 digits with check digit (the buyer IdFiscaleIVA when vat_id is not set)',
    example: '01234567897',
  }),
};

const customerFields = {
  organization_name: safeText(z.string().trim().min(1).max(200)).optional(),
  first_name: safeText(z.string().trim().min(1).max(100)).optional(),
  last_name: safeText(z.string().trim().min(1).max(100)).optional(),
  email: z.email().max(254).optional(),
  contact_type: ContactType.optional(),
  vat_id: VatIdInput.optional(),
  language: CustomerLanguageInput.optional(),
  payment_term_id: IntId.optional(),
  default_ftl_template_id: IntId.optional(),
  salutation: Salutation.optional(),
  is_active: z.boolean().optional(),
  phone: safeText(z.string().max(50)).optional(),
  buyer_reference: safeText(z.string().max(200))
    .optional()
    .meta({ description: 'default buyer reference / Leitweg-ID copied to new invoices' }),
  peppol_id: PeppolIdInput.optional(),
  ...italianFields,
};

/** The name rules of a customer as a whole (after a partial update too): B2B needs a company name, B2C a first and last name. */
export function customerNameIssues(c: {
  contact_type?: 'B2B' | 'B2C';
  organization_name?: string;
  first_name?: string;
  last_name?: string;
}): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if ((c.contact_type ?? 'B2B') === 'B2B' && !c.organization_name)
    issues.push({ path: 'organization_name', message: 'required for B2B customers' });
  if (c.contact_type === 'B2C') {
    if (!c.first_name) issues.push({ path: 'first_name', message: 'required for B2C customers' });
    if (!c.last_name) issues.push({ path: 'last_name', message: 'required for B2C customers' });
  }
  return issues;
}

export const CustomerCreate = z
  .object({ ...customerFields, contact_type: ContactType.default('B2B') })
  .superRefine(
    (c, ctx) => {
      for (const issue of customerNameIssues(c)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    },
    // Run the name rules even when other fields are wrong, so one 400 lists every problem.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  .meta({ id: 'CustomerCreate' });
export type CustomerCreate = z.output<typeof CustomerCreate>;

export const CustomerUpdate = z.object(customerFields).partial().meta({ id: 'CustomerUpdate' });
export type CustomerUpdate = z.output<typeof CustomerUpdate>;

export const AddressType = z.enum(['billing', 'shipping']);

/**
 * Region codes CLDR (the data behind Intl.DisplayNames) knows that are not ISO 3166-1 country codes:
 * the user-assigned ranges (AA, QM-QZ, XA-XZ, ZZ), the exceptionally reserved codes, and the withdrawn
 * codes CLDR keeps as aliases (AN, BU, CS, DD, ...). What remains are the 249 assigned codes.
 */
const NOT_ISO_COUNTRIES = /^(AA|Q[M-Z]|X[A-Z]|ZZ|AC|CP|CQ|DG|EA|EU|EZ|FX|IC|SU|TA|UK|UN|AN|BU|CS|DD|DY|HV|NH|RH|TP|VD|YD|YU|ZR)$/;
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * Whether a code is an assigned ISO 3166-1 alpha-2 country code. Uses the ICU/CLDR region table that
 * ships with Node (maintained with every ICU release) instead of a hand-kept list of ~250 codes.
 */
export function isIsoCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_ISO_COUNTRIES.test(code)) return false;
  try {
    return regionNames.of(code) !== undefined;
  } catch {
    return false;
  }
}

export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'ISO 3166-1 alpha-2 code')
  .transform((s) => s.toUpperCase())
  .refine(isIsoCountryCode, 'not an ISO 3166-1 alpha-2 country code');

const addressFields = {
  address_line_1: safeText(z.string().trim().min(1).max(200)),
  city: safeText(z.string().trim().min(1).max(100)),
  country_code: CountryCode,
  company: safeText(z.string().max(200)).optional(),
  address_line_2: safeText(z.string().max(200)).optional(),
  postal_code: safeText(z.string().trim().max(20)).optional(),
  state_province: safeText(z.string().max(100)).optional(),
  is_default: z.boolean().optional(),
};

export const AddressCreate = z
  .object({ ...addressFields, type: AddressType.default('billing').meta({ description: 'billing (default) or shipping' }) })
  .meta({ id: 'AddressCreate' });
export type AddressCreate = z.output<typeof AddressCreate>;

/** Partial update of an address: only the fields sent change (postal code syntax is checked against the resulting country). */
export const AddressUpdate = z
  .object({ ...addressFields, type: AddressType })
  .partial()
  .meta({ id: 'AddressUpdate' });
export type AddressUpdate = z.output<typeof AddressUpdate>;

export const CustomerListQuery = Pagination.extend({
  q: z.string().max(200).optional(),
  email: z.string().max(254).optional(),
  contact_type: ContactType.optional(),
  is_active: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type CustomerListQuery = z.output<typeof CustomerListQuery>;

const statementPeriod = { from: IsoDate.optional(), to: IsoDate.optional() };
const periodOrder = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;

/** Period of a customer statement; both ends inclusive. */
export const StatementQuery = z.object(statementPeriod).refine(periodOrder, { path: ['to'], message: 'must not be before from' });
export type StatementQuery = z.output<typeof StatementQuery>;

/** GET /customer/{id}/statement/pdf: the period and the language of the PDF. */
export const StatementPdfQuery = z
  .object({
    ...statementPeriod,
    language: LanguageCode.optional().meta({
      description: "de or en (German and English are accepted too, in any case); default: the customer's language",
    }),
  })
  .refine(periodOrder, { path: ['to'], message: 'must not be before from' });
export type StatementPdfQuery = z.output<typeof StatementPdfQuery>;
