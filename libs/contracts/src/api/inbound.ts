import { z } from 'zod';
import { LanguageCode } from './languages';
import { Pagination } from './common';
import { safeText } from './safe-text';

/**
 * Received e-invoices (inbound-service): a document as sent by a supplier (XRechnung UBL or CII, Peppol BIS 3,
 * EN 16931 CII, ZUGFeRD/Factur-X PDF), checked with the official rules at the version it declares, and read
 * into our own JSON vocabulary.
 */

/** Largest XML document accepted (bytes). */
export const INBOUND_XML_MAX_BYTES = 5 * 1024 * 1024;
/** Largest PDF accepted (bytes). */
export const INBOUND_PDF_MAX_BYTES = 10 * 1024 * 1024;
/** Largest document `POST /inbound/validate` checks synchronously (bytes). */
export const INBOUND_VALIDATE_MAX_BYTES = 1024 * 1024;
/**
 * The work one received XML may cost, bounded before any parser or rule set sees it (an e-invoice counted once
 * more, in the worker, when it came embedded in a PDF). A real invoice stays far below: the XRechnung UBL example
 * has about 25 elements per line, so 1,000 lines are about 25,000 elements and 6,000 attributes, and no field but an
 * embedded attachment (…BinaryObject, bounded by the document size) holds more than a few kB of text.
 */
export const INBOUND_XML_LIMITS = {
  /** Elements in the document. */
  elements: 50_000,
  /** Attributes in the document (namespace declarations included). */
  attributes: 50_000,
  /** Attributes of one element. */
  attributesPerElement: 64,
  /** Characters of one text node or attribute value (an embedded …BinaryObject: bounded by the document size only). */
  textChars: 100_000,
} as const;

export const INBOUND_FORMATS = ['xrechnung-ubl', 'xrechnung-cii', 'peppol-ubl', 'ubl-en16931', 'cii-en16931', 'factur-x'] as const;
export const InboundFormat = z.enum(INBOUND_FORMATS).meta({
  id: 'InboundDocumentFormat',
  description:
    'detected format, from the XML itself (sent as XML or embedded in a PDF): xrechnung-ubl / xrechnung-cii (XRechnung CIUS, also inside a PDF such as our own XRechnung PDF), peppol-ubl (Peppol BIS Billing 3), ubl-en16931 / cii-en16931 (plain EN 16931), factur-x (ZUGFeRD/Factur-X: a CII that is not an XRechnung, embedded in a PDF)',
});
export type InboundFormat = z.output<typeof InboundFormat>;

export const InboundFindingSeverity = z.enum(['fatal', 'error', 'warning', 'information']);
export type InboundFindingSeverity = z.output<typeof InboundFindingSeverity>;

export const InboundFinding = z
  .object({
    rule: z
      .string()
      .meta({ description: 'rule id (BR-CO-15, BR-DE-1, PEPPOL-EN16931-R001, XSD, INB-ARITH-…, INB-VAT-RATE)', example: 'BR-CO-15' }),
    severity: InboundFindingSeverity,
    location: z.string().meta({ description: 'XPath of the element the rule is about (XSD: line number)', example: '/Invoice[1]' }),
    message: z.string(),
    source: z.enum(['xsd', 'en16931', 'xrechnung', 'peppol', 'arithmetic', 'attachments', 'vat-rates']).meta({
      description:
        'which artefact found it: the XML schema, a Schematron rule set, our own arithmetic re-check, the limits of embedded attachments, or the plausibility of the VAT rates (INB-VAT-RATE, a warning: a standard rate the country does not have on the date of supply)',
    }),
  })
  .meta({ id: 'InboundValidationFinding' });
export type InboundFinding = z.output<typeof InboundFinding>;

export const InboundValidationReport = z
  .object({
    valid: z.boolean().meta({ description: 'true when no finding is fatal or error (warnings and information do not count)' }),
    format: InboundFormat,
    syntax: z.enum(['ubl', 'cii']),
    document_type: z.enum(['INVOICE', 'CREDIT_NOTE']),
    customization_id: z.string().meta({ description: 'the specification identifier the document declares (BT-24)' }),
    profile: z.string().meta({ description: 'profile name derived from BT-24, e.g. XRechnung 3.0, Peppol BIS Billing 3.0, EN16931' }),
    version: z.string().optional().meta({ description: 'version the document declares (XRechnung: 3.0)' }),
    rules_applied: z.array(z.string()).meta({ description: 'the rule sets run, in order' }),
    findings: z.array(InboundFinding),
  })
  .meta({ id: 'InboundValidationReport' });
export type InboundValidationReport = z.output<typeof InboundValidationReport>;

const Amount = z.string().meta({ description: 'decimal amount as in the document', example: '119.00' });

export const InboundParty = z.object({
  name: z.string().optional(),
  trading_name: z.string().optional(),
  vat_id: z.string().optional(),
  tax_number: z.string().optional(),
  legal_registration_id: z.string().optional(),
  electronic_address: z.object({ scheme: z.string().optional(), value: z.string() }).optional(),
  identifiers: z.array(z.object({ scheme: z.string().optional(), value: z.string() })),
  address: z
    .object({
      street: z.string().optional(),
      additional: z.string().optional(),
      city: z.string().optional(),
      postal_code: z.string().optional(),
      country: z.string().optional(),
    })
    .optional(),
  contact: z.object({ name: z.string().optional(), phone: z.string().optional(), email: z.string().optional() }).optional(),
});

const AllowanceCharge = z.object({
  charge: z.boolean().meta({ description: 'true: charge, false: allowance' }),
  amount: Amount,
  base_amount: Amount.optional(),
  percentage: z.string().optional(),
  reason: z.string().optional(),
  reason_code: z.string().optional(),
  vat_category: z.string().optional(),
  vat_rate: z.string().optional(),
});

export const InboundLine = z.object({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  quantity: z.string(),
  unit: z.string().optional(),
  net_price: Amount.optional(),
  net_amount: Amount,
  vat_category: z.string().optional(),
  vat_rate: z.string().optional(),
  seller_item_id: z.string().optional(),
  allowances_charges: z.array(AllowanceCharge),
});

export const InboundContent = z
  .object({
    number: z.string().optional(),
    type_code: z.string().optional(),
    issue_date: z.string().optional(),
    due_date: z.string().optional(),
    delivery_date: z.string().optional(),
    service_period: z
      .object({
        start: z.string().optional().meta({ description: 'BT-73, first day of the period (YYYY-MM-DD)', example: '2026-10-01' }),
        end: z.string().optional().meta({ description: 'BT-74, last day of the period (YYYY-MM-DD)', example: '2026-10-31' }),
      })
      .optional()
      .meta({
        description:
          'the invoicing period the document states for the whole invoice (BG-14: CII BillingSpecifiedPeriod, UBL InvoicePeriod); absent when it states none',
      }),
    currency: z.string().optional(),
    tax_currency: z.string().optional().meta({
      description: 'BT-6, the VAT accounting currency when the document states one beside its own currency (e.g. EUR on a DKK invoice)',
      example: 'EUR',
    }),
    buyer_reference: z.string().optional(),
    order_reference: z.string().optional(),
    contract_reference: z.string().optional(),
    project_reference: z.string().optional(),
    preceding_invoices: z.array(z.string()),
    notes: z.array(z.string()),
    seller: InboundParty,
    buyer: InboundParty,
    lines: z.array(InboundLine),
    allowances_charges: z.array(AllowanceCharge),
    vat_breakdown: z.array(
      z.object({
        category: z.string().optional(),
        rate: z.string().optional(),
        taxable_amount: Amount,
        tax_amount: Amount,
        exemption_reason: z.string().optional(),
      }),
    ),
    totals: z.object({
      line_total: Amount.optional(),
      allowance_total: Amount.optional(),
      charge_total: Amount.optional(),
      tax_exclusive: Amount.optional(),
      tax_total: Amount.optional(),
      tax_total_tax_currency: Amount.optional().meta({
        description: 'BT-111, the VAT total in the VAT accounting currency (tax_currency), when the document states it',
        example: '33.52',
      }),
      tax_inclusive: Amount.optional(),
      prepaid: Amount.optional(),
      rounding: Amount.optional(),
      payable: Amount.optional(),
    }),
    payment_means: z.array(
      z.object({
        code: z.string().optional(),
        iban: z.string().optional(),
        bic: z.string().optional(),
        account_name: z.string().optional(),
        remittance: z.string().optional(),
      }),
    ),
    payment_terms: z.string().optional(),
    attachments: z.array(
      z.object({
        id: z.string().optional(),
        filename: z.string().optional(),
        mime_code: z.string().optional(),
        description: z.string().optional(),
        uri: z.string().optional(),
        download: z.string().optional().meta({
          description:
            'an embedded file that was stored: the path of its presigned link (GET /inbound/{id}/attachments/{n}, n from 1 in document order); absent when it was not embedded or over a limit (see the warning INB-ATTACHMENT)',
          example: '/api/v1/inbound/7/attachments/1',
        }),
        size: z.number().int().optional().meta({ description: 'bytes of the decoded file (a stored one)' }),
        sha256: z.string().optional().meta({ description: 'hex SHA-256 of the decoded file (a stored one)' }),
      }),
    ),
  })
  .meta({ id: 'InboundContent' });
export type InboundContent = z.output<typeof InboundContent>;
export type InboundParty = z.output<typeof InboundParty>;
export type InboundLine = z.output<typeof InboundLine>;

export const InboundStatus = z.enum(['PROCESSING', 'RECEIVED', 'REJECTED']).meta({
  description:
    'PROCESSING: accepted and stored, being read and validated (its job: GET /inbound/{id}/job); RECEIVED: read and checked (see valid); REJECTED: kept but not readable as an e-invoice (see error)',
});

const reading = 'absent while the document is PROCESSING, and when it was REJECTED';

export const InboundDocument = z
  .object({
    id: z.number().int(),
    status: InboundStatus,
    valid: z.boolean().meta({ description: 'false also while PROCESSING and when REJECTED' }),
    received_at: z.string(),
    filename: z.string().optional(),
    media_type: z.enum(['application/xml', 'application/pdf']),
    size: z.number().int(),
    sha256: z.string(),
    format: InboundFormat.optional().meta({ description: reading }),
    profile: z.string().optional().meta({ description: reading }),
    version: z.string().optional(),
    customization_id: z.string().optional().meta({ description: reading }),
    document_type: z.enum(['INVOICE', 'CREDIT_NOTE']).optional().meta({ description: reading }),
    number: z
      .string()
      .optional()
      .meta({ description: `the invoice number (BT-1); ${reading}` }),
    issue_date: z
      .string()
      .optional()
      .meta({ description: `the issue date (BT-2); ${reading}` }),
    seller_name: z.string().optional().meta({ description: reading }),
    seller_vat_id: z.string().optional().meta({ description: reading }),
    payable: z
      .string()
      .optional()
      .meta({ description: `the amount due for payment (BT-115), a decimal string; ${reading}` }),
    currency: z.string().optional().meta({ description: reading }),
    error_count: z.number().int().meta({ description: 'findings of severity error' }),
    findings: z
      .array(InboundFinding)
      .optional()
      .meta({ description: `on GET /inbound/{id} and in webhooks, not in lists (error_count counts the errors); ${reading}` }),
    content: InboundContent.optional().meta({
      description: `the whole reading, on GET /inbound/{id} and in webhooks, not in lists; ${reading}`,
    }),
    error: z.object({ code: z.string(), message: z.string() }).optional().meta({
      description: 'REJECTED: why the document could not be read (XML_NOT_WELL_FORMED, PDF_WITHOUT_EINVOICE, UNSUPPORTED_FORMAT, …)',
    }),
    supplier_id: z
      .number()
      .int()
      .optional()
      .meta({ description: 'the supplier of the register the sender matched (VAT ID, Peppol id or IBAN)' }),
    duplicate_of: z
      .number()
      .int()
      .optional()
      .meta({ description: 'an earlier received document of the same supplier (or seller VAT ID) with the same invoice number' }),
    iban_differs: z
      .boolean()
      .meta({ description: "true when the document asks for payment to an IBAN the matched supplier's register entry does not list" }),
  })
  .meta({ id: 'InboundDocument' });
export type InboundDocument = z.output<typeof InboundDocument>;

/** A list entry: the document in its one shape, without the detail's findings and content. */
export type InboundSummary = Omit<InboundDocument, 'findings' | 'content'>;

export const InboundListQuery = Pagination.extend({
  status: InboundStatus.optional(),
  valid: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  seller_vat_id: z
    .string()
    .trim()
    .min(3)
    .max(24)
    .regex(/^[A-Za-z]{2} ?[A-Za-z0-9+*. ]{1,20}$/, 'a VAT ID: country code and up to 18 letters or digits')
    .transform((v) => v.replace(/\s+/g, '').toUpperCase())
    .optional()
    .meta({ description: "the seller's VAT ID (BT-31), blanks ignored", example: 'DE123456789' }),
});
export type InboundListQuery = z.output<typeof InboundListQuery>;

/** The task name of a received document's job. */
export const INBOUND_TASK = 'receive_inbound_document';

/**
 * The job of a received document (POST /inbound/ answers it with 202): reading and validation run after the upload is
 * stored. Its id is the document's id; GET /inbound/{id}/job?wait=N long-polls like a finalization job.
 */
export const InboundJob = z
  .object({
    id: z.number().int().meta({ description: "the job's id: the received document's id" }),
    task: z.literal(INBOUND_TASK),
    status: z.enum(['queued', 'started', 'finished', 'failed']).meta({
      description:
        'queued -> started -> finished (the document is RECEIVED, valid or not) | failed (REJECTED: not readable, see error_code)',
    }),
    document_id: z.number().int(),
    error_code: z.string().optional().meta({ description: 'when failed: XML_NOT_WELL_FORMED, PDF_WITHOUT_EINVOICE, PDF_MALFORMED, …' }),
    error_message: z.string().optional().meta({ description: 'when failed' }),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    links: z.object({ self: z.string(), document: z.string(), pdf: z.string() }),
  })
  .meta({
    id: 'InboundJob',
    example: {
      id: 7,
      task: 'receive_inbound_document',
      status: 'finished',
      document_id: 7,
      created_at: '2026-11-27T10:15:00.000Z',
      started_at: '2026-11-27T10:15:00.020Z',
      finished_at: '2026-11-27T10:15:00.310Z',
      links: { self: '/api/v1/inbound/7/job', document: '/api/v1/inbound/7', pdf: '/api/v1/inbound/7/pdf' },
    },
  });
export type InboundJob = z.output<typeof InboundJob>;

/** GET /inbound/{id}/pdf: the language of a rendered view (a PDF as sent is the same in both). */
export const InboundPdfQuery = z.object({
  language: LanguageCode.default('de').meta({
    description: 'of the rendered view of an XML document: de or en (German and English are accepted too, in any case)',
  }),
});
export type InboundPdfQuery = z.output<typeof InboundPdfQuery>;

/** Embedded attachments of a received document that are decoded and stored (more or larger: a warning, not stored). */
export const INBOUND_ATTACHMENTS_MAX = 20;
export const INBOUND_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const INBOUND_ATTACHMENTS_MAX_TOTAL_BYTES = 25 * 1024 * 1024;

/** GET /inbound/{id}/original and /inbound/{id}/attachments/{n}: a presigned download (always Content-Disposition: attachment). */
export const InboundFileLink = z
  .object({
    url: z.string().meta({ description: 'presigned; valid for expires_in seconds; downloads as a file (Content-Disposition: attachment)' }),
    filename: z.string(),
    content_type: z.string().meta({
      description:
        'the type the file is served with: the original application/xml or application/pdf; an attachment its declared type when it is one XRechnung allows (PDF, PNG, JPEG, CSV, XLSX, ODS), else application/octet-stream',
    }),
    expires_in: z.number().int(),
  })
  .strict()
  .meta({ id: 'InboundFileLink' });
export type InboundFileLink = z.output<typeof InboundFileLink>;

export const InboundValidationResult = InboundValidationReport.extend({ content: InboundContent }).meta({ id: 'InboundValidationResult' });
export type InboundValidationResult = z.output<typeof InboundValidationResult>;

/** Most IBANs one supplier lists. */
export const SUPPLIER_MAX_IBANS = 10;

/** A supplier of the company (the register received e-invoices are matched against). */
export const SupplierInput = z
  .object({
    name: safeText(z.string().trim().min(1).max(200)),
    vat_id: z
      .string()
      .trim()
      .max(24)
      .regex(/^[A-Za-z]{2} ?[A-Za-z0-9+*. ]{1,20}$/, 'a VAT ID: country code and up to 18 letters or digits')
      .transform((v) => v.replace(/\s+/g, '').toUpperCase())
      .optional(),
    peppol_id: z
      .string()
      .trim()
      .max(60)
      .regex(/^\d{4}:[^\s]{1,50}$/, 'scheme:identifier, e.g. 0204:04011000-12345-03 or 9930:DE123456789')
      .optional()
      .meta({ description: 'Peppol participant id as scheme:value (the electronic address of the sender, BT-34)' }),
    ibans: z
      .array(z.string().trim().min(15).max(42))
      .max(SUPPLIER_MAX_IBANS)
      .default([])
      .meta({ description: 'the accounts the supplier is paid to; a received invoice naming another IBAN is flagged' }),
  })
  .meta({ id: 'SupplierInput', example: { name: 'Bürobedarf Müller GmbH', vat_id: 'DE123456789', ibans: ['DE75512108001245126199'] } });
export type SupplierInput = z.output<typeof SupplierInput>;

export const Supplier = z
  .object({
    id: z.number().int(),
    name: z.string(),
    vat_id: z.string().optional(),
    peppol_id: z.string().optional(),
    ibans: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Supplier' });
export type Supplier = z.output<typeof Supplier>;

export const SupplierListQuery = Pagination;
