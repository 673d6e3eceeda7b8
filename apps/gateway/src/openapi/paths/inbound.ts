import { z } from 'zod';
import {
  DownloadLink,
  InboundDocument,
  InboundFileLink,
  InboundJob,
  InboundPdfQuery,
  JobWaitQuery,
  InboundListQuery,
  InboundValidationResult,
  MessageResponse,
  Supplier,
  SupplierInput,
  SupplierListQuery,
} from '@inv/contracts';
import {
  body,
  bodyErrors,
  commonErrors,
  conflict,
  intId,
  json,
  notFound,
  type Operation,
  paginationHeaders,
  problem,
  queryParams,
  unprocessable,
} from '../builder';

const tags = ['Inbound'];
const id = intId('id', 'inbound document id (per company, from 1)');

/** The document as sent: raw XML or PDF, or one file of a form. */
const documentBody = (maxXml: string, maxPdf: string) => ({
  required: true,
  content: {
    'application/xml': {
      schema: { type: 'string', description: `XRechnung (UBL or CII), Peppol BIS Billing 3 or EN 16931 UBL/CII, UTF-8, at most ${maxXml}` },
      example:
        '<?xml version="1.0" encoding="UTF-8"?>\n<ubl:Invoice xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" …>\n  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>\n  …\n</ubl:Invoice>',
    },
    'application/pdf': {
      schema: {
        type: 'string',
        format: 'binary',
        description: `a PDF embedding the e-invoice XML (ZUGFeRD/Factur-X, XRechnung in PDF: the embedded file whose root element is a UBL Invoice/CreditNote or CII invoice, whatever its name), at most ${maxPdf}`,
      },
    },
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary', description: 'the one XML or PDF file' } },
      },
    },
  },
});

const documentErrors = () => ({
  ...commonErrors(),
  400: problem(
    'not an e-invoice that can be read: XML_NOT_WELL_FORMED, XML_DTD_FORBIDDEN (any DTD or entity: XXE and entity expansion are refused), XML_ENCODING_UNSUPPORTED, XML_TOO_DEEP, PDF_MALFORMED, VALIDATION_ERROR',
  ),
  413: problem('DOCUMENT_TOO_LARGE: over the limit (XML 5 MiB, also once extracted from a PDF; PDF 10 MiB; validate 1 MiB)'),
  415: problem('UNSUPPORTED_FORMAT: neither XML nor PDF, or XML of another vocabulary than UBL Invoice/CreditNote or CII'),
  422: problem(
    'PDF_WITHOUT_EINVOICE: a PDF none of whose embedded files is a UBL Invoice/CreditNote or CII invoice (the message lists the files found)',
  ),
});

/** POST /inbound/ refuses at once only what is cheap to see; the rest ends the job failed with the same codes. */
const acceptErrors = () => ({
  ...commonErrors(),
  400: problem(
    'refused before anything is stored: XML_DTD_FORBIDDEN (any DTD or entity: XXE and entity expansion are refused), XML_ENCODING_UNSUPPORTED, XML_TOO_DEEP, XML_NOT_WELL_FORMED (no root element), VALIDATION_ERROR',
  ),
  413: problem('DOCUMENT_TOO_LARGE: over the limit (XML 5 MiB, PDF 10 MiB), counted while streaming'),
  415: problem('UNSUPPORTED_FORMAT: neither XML nor PDF, or a root element other than UBL Invoice/CreditNote or CII CrossIndustryInvoice'),
});

const jobExample = {
  id: 7,
  task: 'receive_inbound_document',
  status: 'queued',
  document_id: 7,
  created_at: '2026-11-27T10:15:00.000Z',
  started_at: null,
  finished_at: null,
  links: { self: '/api/v1/inbound/7/job', document: '/api/v1/inbound/7', pdf: '/api/v1/inbound/7/pdf' },
};

export const example = {
  id: 1,
  status: 'RECEIVED',
  valid: true,
  received_at: '2026-11-27T10:15:00.000Z',
  media_type: 'application/xml',
  size: 5874,
  sha256: '9f2c4e0b7d1a3c5e8f6b2d4a1c3e5f7a9b0d2c4e6f8a1b3d5c7e9f0a2b4c6d8e',
  format: 'xrechnung-ubl',
  profile: 'XRechnung 3.0',
  version: '3.0',
  customization_id: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  document_type: 'INVOICE',
  number: '123456XX',
  issue_date: '2016-04-04',
  seller_name: '[Seller name]',
  seller_vat_id: 'DE 123456789',
  payable: '374.68',
  currency: 'EUR',
  error_count: 0,
  supplier_id: 4,
  iban_differs: false,
  findings: [
    {
      rule: 'PEPPOL-EN16931-R005',
      severity: 'warning',
      location: '/Invoice[1]',
      message: 'VAT accounting currency code MUST be different from invoice currency code when provided.',
      source: 'xrechnung',
    },
  ],
  content: {
    number: '123456XX',
    type_code: '380',
    issue_date: '2016-04-04',
    currency: 'EUR',
    buyer_reference: '04011000-12345-34',
    preceding_invoices: [],
    notes: [],
    seller: {
      name: '[Seller name]',
      vat_id: 'DE 123456789',
      identifiers: [],
      address: { city: '[Seller city]', postal_code: '12345', country: 'DE' },
    },
    buyer: { name: '[Buyer name]', identifiers: [], address: { city: '[Buyer city]', postal_code: '12345', country: 'DE' } },
    lines: [
      {
        id: '1',
        name: 'Beratung',
        quantity: '1',
        unit: 'XPP',
        net_price: '288.79',
        net_amount: '288.79',
        vat_category: 'S',
        vat_rate: '19',
        allowances_charges: [],
      },
    ],
    allowances_charges: [],
    vat_breakdown: [{ category: 'S', rate: '19', taxable_amount: '314.86', tax_amount: '59.82' }],
    totals: { line_total: '314.86', tax_exclusive: '314.86', tax_total: '59.82', tax_inclusive: '374.68', payable: '374.68' },
    payment_means: [{ code: '58', iban: 'DE75512108001245126199' }],
    payment_terms: 'Zahlbar sofort ohne Abzug.',
    attachments: [
      {
        id: 'TS-2026-11',
        filename: 'Stundenzettel-November.pdf',
        mime_code: 'application/pdf',
        description: 'Stundenzettel November',
        download: '/api/v1/inbound/1/attachments/1',
        size: 48213,
        sha256: '9f2c1d0b5e8a7c3f4d6e1b2a0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d',
      },
    ],
  },
};

export function inboundPaths(): Record<string, Record<string, unknown>> {
  const op = (o: Omit<Operation, 'tags'>): Operation => ({ tags, ...o });
  return {
    '/inbound/': {
      get: op({
        operationId: 'listInboundDocuments',
        summary: 'List received e-invoices',
        description:
          'Newest first, without findings and content (GET /inbound/{id} has them); filters status, valid and the seller VAT ID.',
        parameters: queryParams(InboundListQuery),
        responses: { 200: json(z.array(InboundDocument), 'OK', paginationHeaders), ...commonErrors() },
      }),
      post: op({
        operationId: 'receiveInboundDocument',
        summary: 'Receive an e-invoice',
        description:
          'Accepts a received e-invoice (XRechnung UBL or CII, Peppol BIS Billing 3 invoice or credit note, EN 16931 UBL/CII, ZUGFeRD/Factur-X PDF): ' +
          'the original is stored under the company and the answer is 202 with a job whose id is the document id (Location: the job). ' +
          'Reading and validation then run in the background: the reading in our JSON vocabulary with the detected format, profile, version and the findings of the official rules ' +
          '(XSD, EN 16931 Schematron, and the XRechnung or Peppol rules the document declares; `valid` is false when a finding is fatal or error). ' +
          'Long-poll `GET /inbound/{id}/job?wait=25` until `finished` (the document is RECEIVED, valid or not) or `failed` (REJECTED: not readable as an e-invoice, `error_code` says why: ' +
          'XML_NOT_WELL_FORMED, PDF_WITHOUT_EINVOICE, PDF_MALFORMED, DOCUMENT_TOO_LARGE once extracted from a PDF, UNSUPPORTED_FORMAT). ' +
          'What is cheap to see (size, type, DTD, encoding, depth, root element) is refused at once with a 4xx and nothing is stored.',
        requestBody: documentBody('5 MiB', '10 MiB'),
        responses: {
          202: {
            description: 'accepted (Location: the job)',
            content: { 'application/json': { schema: json(InboundJob).content['application/json'].schema, example: jobExample } },
          },
          ...acceptErrors(),
        },
      }),
    },
    '/inbound/validate': {
      post: op({
        operationId: 'validateInboundDocument',
        summary: 'Validate an e-invoice without storing it',
        description:
          'The same checks as POST /inbound/, answered synchronously for documents up to 1 MiB; nothing is stored. ' +
          'Each finding names the rule (BR-…, BR-DE-…, PEPPOL-…, XSD, or INB-ARITH-… of our independent arithmetic check), severity, XPath location and message.',
        requestBody: documentBody('1 MiB', '1 MiB'),
        responses: {
          200: {
            description: 'the validation report and the reading',
            content: {
              'application/json': {
                schema: json(InboundValidationResult).content['application/json'].schema,
                example: {
                  valid: false,
                  format: 'xrechnung-ubl',
                  syntax: 'ubl',
                  document_type: 'INVOICE',
                  customization_id: example.customization_id,
                  profile: 'XRechnung 3.0',
                  version: '3.0',
                  rules_applied: ['xsd', 'en16931-ubl', 'xrechnung-ubl'],
                  findings: [
                    {
                      rule: 'BR-CO-15',
                      severity: 'fatal',
                      location: '/Invoice[1]',
                      message:
                        'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
                      source: 'en16931',
                    },
                    {
                      rule: 'INB-ARITH-TAX-INCLUSIVE',
                      severity: 'error',
                      location: 'totals.tax_inclusive',
                      message: 'total without VAT + VAT = 374.68, the document states 375.68 (BT-112)',
                      source: 'arithmetic',
                    },
                  ],
                  content: example.content,
                },
              },
            },
          },
          ...documentErrors(),
        },
      }),
    },
    '/suppliers/': {
      get: op({
        operationId: 'listSuppliers',
        summary: 'List suppliers',
        description: 'The supplier register received e-invoices are matched against, by id.',
        parameters: queryParams(SupplierListQuery),
        responses: { 200: json(z.array(Supplier), 'OK', paginationHeaders), ...commonErrors() },
      }),
      post: op({
        operationId: 'createSupplier',
        summary: 'Add a supplier',
        description:
          'A received e-invoice is matched to a supplier by VAT ID, then Peppol id (the electronic address), then IBAN; ' +
          'it is flagged `iban_differs` when it asks for payment to an IBAN the entry does not list, and `duplicate_of` when the supplier sent the number before. IBANs are checked (400 naming each invalid one).',
        requestBody: body(SupplierInput, { name: 'Bürobedarf Müller GmbH', vat_id: 'DE123456789', ibans: ['DE75512108001245126199'] }),
        responses: { 201: json(Supplier, 'created (Location: the supplier)'), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/suppliers/{id}': {
      parameters: [intId('id', 'supplier id (per company, from 1)')],
      get: op({
        operationId: 'getSupplier',
        summary: 'Get a supplier',
        responses: { 200: json(Supplier), ...notFound(), ...commonErrors() },
      }),
      put: op({
        operationId: 'replaceSupplier',
        summary: 'Replace a supplier',
        description: 'The whole entry: fields left out are removed.',
        requestBody: body(SupplierInput, {
          name: 'Bürobedarf Müller GmbH',
          vat_id: 'DE123456789',
          peppol_id: '9930:DE123456789',
          ibans: [],
        }),
        responses: { 200: json(Supplier), ...notFound(), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'deleteSupplier',
        summary: 'Delete a supplier',
        description: 'Documents matched before keep their supplier_id.',
        responses: { 200: json(MessageResponse), ...notFound(), ...commonErrors() },
      }),
    },
    '/inbound/{id}': {
      parameters: [id],
      get: op({
        operationId: 'getInboundDocument',
        summary: 'Get a received e-invoice',
        description:
          'The reading in our JSON vocabulary, the detected format, profile and version, and the validation findings. ' +
          'While its job runs the status is PROCESSING and the reading is absent; a REJECTED document has `error` instead.',
        responses: {
          200: {
            description: 'OK',
            content: { 'application/json': { schema: json(InboundDocument).content['application/json'].schema, example } },
          },
          ...notFound(),
          ...commonErrors(),
        },
      }),
      delete: op({
        operationId: 'deleteInboundDocument',
        summary: 'Delete a received e-invoice',
        description:
          'Removes the reading, the stored original, its stored attachments and the rendered views (announced as inbound.deleted); a document still being read can be deleted too.',
        responses: { 200: json(MessageResponse), ...notFound(), ...commonErrors() },
      }),
    },
    '/inbound/{id}/job': {
      parameters: [id],
      get: op({
        operationId: 'getInboundJob',
        summary: 'Get the job of a received e-invoice',
        description:
          'queued -> started -> finished | failed, like a finalization job; its id is the document id. With `wait` the answer is held (long polling) until the job has ended, at most that many seconds.',
        parameters: queryParams(JobWaitQuery),
        responses: {
          200: {
            description: 'OK',
            content: {
              'application/json': {
                schema: json(InboundJob).content['application/json'].schema,
                example: {
                  ...jobExample,
                  status: 'finished',
                  started_at: '2026-11-27T10:15:00.020Z',
                  finished_at: '2026-11-27T10:15:00.310Z',
                },
              },
            },
          },
          ...notFound(),
          ...commonErrors(),
        },
      }),
    },
    '/inbound/{id}/pdf': {
      parameters: [id],
      get: op({
        operationId: 'getInboundPdfLink',
        summary: 'Get a human-readable PDF of a received e-invoice',
        description:
          'A presigned link, valid 5 minutes. A ZUGFeRD/Factur-X PDF is the original as the supplier sent it (the same in both languages); ' +
          'an XML e-invoice (XRechnung has no visual of its own) is rendered from the reading in German or English ("Eingangsrechnung" / "Received invoice": ' +
          'seller, buyer, numbers and dates, lines, allowances and charges, VAT breakdown, totals, payment means, terms, notes), once per language, and kept with the document.',
        parameters: queryParams(InboundPdfQuery),
        responses: {
          200: json(DownloadLink),
          ...notFound(),
          ...conflict('DOCUMENT_PROCESSING: the job has not ended yet'),
          ...unprocessable('DOCUMENT_NOT_READABLE: the document was REJECTED and has no reading to render'),
          ...commonErrors(),
        },
      }),
    },
    '/inbound/{id}/original': {
      parameters: [id],
      get: op({
        operationId: 'getInboundOriginalLink',
        summary: 'Download the original of a received e-invoice',
        description:
          'A presigned link, valid 5 minutes, to the document exactly as the supplier sent it (XML or ZUGFeRD/Factur-X PDF), byte for byte; ' +
          'it downloads as a file (Content-Disposition: attachment). Available in every status, also PROCESSING and REJECTED.',
        responses: {
          200: {
            description: 'OK',
            content: {
              'application/json': {
                schema: json(InboundFileLink).content['application/json'].schema,
                example: {
                  url: 'https://storage.example.com/invoicing/cmp_1/inbound/1/original.xml?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=300&X-Amz-Signature=…',
                  filename: 'inbound-1.xml',
                  content_type: 'application/xml',
                  expires_in: 300,
                },
              },
            },
          },
          ...notFound(),
          ...commonErrors(),
        },
      }),
    },
    '/inbound/{id}/attachments/{n}': {
      parameters: [id, intId('n', 'the place of the attachment in content.attachments, from 1 (its `download` path)')],
      get: op({
        operationId: 'getInboundAttachmentLink',
        summary: 'Download a file embedded in a received e-invoice',
        description:
          'A presigned link, valid 5 minutes, to an attachment the supplier embedded (UBL EmbeddedDocumentBinaryObject, CII AttachmentBinaryObject), ' +
          'decoded and stored when the document was read. Per document at most 20 attachments, 10 MiB each and 25 MiB in all are stored; ' +
          'one beyond is named in a warning finding INB-ATTACHMENT and has no `download`. It always downloads as a file (Content-Disposition: attachment) ' +
          'and is served as its declared type only when EN 16931 allows it (PDF, PNG, JPEG, CSV, XLSX, ODS), else as application/octet-stream. ' +
          'The other files a ZUGFeRD/Factur-X PDF embeds beside its invoice XML are attachments too, numbered after those of the XML. 404 ATTACHMENT_NOT_FOUND when the document has no stored attachment n.',
        responses: {
          200: {
            description: 'OK',
            content: {
              'application/json': {
                schema: json(InboundFileLink).content['application/json'].schema,
                example: {
                  url: 'https://storage.example.com/invoicing/cmp_1/inbound/1/attachments/1-Stundenzettel-November.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=300&X-Amz-Signature=…',
                  filename: 'Stundenzettel-November.pdf',
                  content_type: 'application/pdf',
                  expires_in: 300,
                },
              },
            },
          },
          404: problem(
            "ATTACHMENT_NOT_FOUND: the document has no stored attachment n; NOT_FOUND: no such document (another company's ids too)",
          ),
          ...commonErrors(),
        },
      }),
    },
  };
}
