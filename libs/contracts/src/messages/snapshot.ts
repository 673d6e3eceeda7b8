import { z } from 'zod';

/**
 * The frozen invoice sent to document-service: everything needed to render the PDF and the e-invoice XML,
 * with seller and buyer as they were at finalization. Same shape as the EN 16931 input model of
 * libs/einvoice (`EInvoice`); amounts are decimal strings.
 */
const Dec = z.string().regex(/^-?\d+(\.\d+)?$/);
const SnapshotAddress = z.object({
  line1: z.string(),
  line2: z.string().optional(),
  city: z.string(),
  postalCode: z.string().optional(),
  subdivision: z.string().optional(),
  countryCode: z.string().length(2),
});
const SnapshotParty = z.object({
  name: z.string(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  vatId: z.string().optional(),
  taxNumber: z.string().optional(),
  fiscalCode: z.string().optional(),
  /** BT-30 legal registration identifier and its ISO 6523 ICD scheme BT-30-1. */
  registrationId: z.string().optional(),
  registrationScheme: z.string().optional(),
  registrationCourt: z.string().optional(),
  /** BT-29 seller identifier (BT-46 for a buyer) and its ISO 6523 ICD scheme BT-29-1. */
  identifier: z.object({ value: z.string(), scheme: z.string().optional() }).optional(),
  /** The seller's managing directors (§ 35a GmbHG: on every business letter); printed in the PDF footer only. */
  managingDirectors: z.array(z.string()).optional(),
  electronicAddress: z.object({ scheme: z.string(), value: z.string() }).optional(),
  address: SnapshotAddress,
  contact: z.object({ name: z.string().optional(), phone: z.string().optional(), email: z.string().optional() }).optional(),
  sdiCode: z.string().optional(),
  pec: z.string().optional(),
  /** Italian VAT number without the IT prefix (FatturaPA IdFiscaleIVA of a buyer that gave no vat_id). */
  partitaIva: z.string().optional(),
});
const VatCategory = z.enum(['S', 'Z', 'AE', 'K', 'G', 'E', 'O']);
const Treatment = z.enum(['standard', 'reduced', 'reverse_charge', 'intra_community', 'export_outside_eu', 'exempt', 'outside_scope']);
const Period = z.object({ start: z.string(), end: z.string() });

export const InvoiceSnapshot = z.object({
  number: z.string(),
  issueDate: z.string(),
  typeCode: z.enum(['380', '381']),
  currency: z.literal('EUR'),
  dueDate: z.string().optional(),
  buyerReference: z.string().optional(),
  orderReference: z.string().optional(),
  precedingInvoice: z.object({ number: z.string(), issueDate: z.string().optional() }).optional(),
  period: Period.optional(),
  deliveryDate: z.string().optional(),
  notes: z.array(z.string()).optional(),
  paymentTerms: z.string().optional(),
  /** Skonto of the payment term: percent, the last day it applies and its amount (of the gross total). */
  earlyPaymentDiscount: z.object({ percent: Dec, untilDate: z.string(), amount: Dec, days: z.number().int() }).optional(),
  seller: SnapshotParty,
  buyer: SnapshotParty,
  deliverTo: z.object({ name: z.string().optional(), address: SnapshotAddress }).optional(),
  lines: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string().optional(),
        quantity: Dec,
        unitCode: z.string(),
        unitPrice: Dec,
        discount: z.object({ type: z.enum(['PERCENTAGE', 'FIXED_AMOUNT']), value: Dec, reason: z.string().optional() }).optional(),
        vat: z.object({ category: VatCategory, rate: Dec, treatment: Treatment }),
        period: Period.optional(),
      }),
    )
    .min(1),
  payment: z
    .object({
      meansCode: z.enum(['58', '30', '1', '97']).meta({
        description: 'UNCL 4461: 58 SEPA credit transfer, 30 credit transfer, 1 not defined, 97 clearing between partners (credit notes)',
      }),
      iban: z.string().optional(),
      bic: z.string().optional(),
      accountName: z.string().optional(),
      remittanceInfo: z.string().optional(),
    })
    .optional(),
  exemptions: z.record(z.string(), z.object({ reason: z.string().optional(), code: z.string().optional() })).optional(),
  language: z.enum(['de', 'en']),
  /** The buyer's customer number (the accounting export derives the debtor account from it). */
  customerNumber: z.number().int().optional(),
});
export type InvoiceSnapshot = z.output<typeof InvoiceSnapshot>;
