import { z } from 'zod';
import {
  NumberingDocumentType,
  NumberingSequence,
  NumberingUpdate,
  Product,
  ProductInput,
  ProductListQuery,
  ProductUpdate,
  MessageBody,
} from '@inv/contracts';
import {
  body,
  bodyErrors,
  commonErrors,
  conflict,
  intId,
  json,
  notFound,
  paginationHeaders,
  queryParams,
  requestSchema,
  type Operation,
} from '../builder';

/** /products/ (the catalog positions are filled from) and /numbering/ (invoice and credit-note number sequences). */
export function catalogPaths(): Record<string, Record<string, unknown>> {
  const p = (o: Omit<Operation, 'tags'>): Operation => ({ tags: ['Products'], ...o });
  const n = (o: Omit<Operation, 'tags'>): Operation => ({ tags: ['Numbering'], ...o });
  const documentType = {
    name: 'document_type',
    in: 'path',
    required: true,
    description: 'invoice or credit_note',
    schema: requestSchema(NumberingDocumentType),
  };
  return {
    '/products/': {
      get: p({
        operationId: 'listProducts',
        summary: 'List products, newest first; q searches name and SKU',
        parameters: queryParams(ProductListQuery),
        responses: {
          200: json(
            z.object({ products: z.array(Product), total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
            'a page of products',
            paginationHeaders,
          ),
          ...commonErrors(),
        },
      }),
      post: p({
        operationId: 'createProduct',
        summary: 'Add a product (unit_id a UN/ECE Rec 20 code; SKU unique within the company)',
        requestBody: body(ProductInput, {
          name: 'Beratung',
          unit_id: 'HUR',
          unit_net_amount: 120,
          tax_treatment_id: 'standard',
          sku: 'CONS-1',
        }),
        responses: {
          201: json(Product.extend({ message: z.string() }), 'created'),
          ...conflict('the SKU is taken (DUPLICATE_SKU)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/products/{id}': {
      parameters: [intId('id', 'product id')],
      get: p({ operationId: 'getProduct', summary: 'A product', responses: { 200: json(Product), ...notFound(), ...commonErrors() } }),
      put: p({
        operationId: 'updateProduct',
        summary: 'Change a product (only the fields sent change; null removes description or sku)',
        description: 'Positions filled from the product keep their copies: invoices, drafts included, never change with the product.',
        requestBody: body(ProductUpdate, { unit_net_amount: 130, active: false }),
        responses: {
          200: json(Product.extend({ message: z.string() })),
          ...notFound(),
          ...conflict('the SKU is taken (DUPLICATE_SKU)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
      delete: p({
        operationId: 'deleteProduct',
        summary: 'Delete a product (positions filled from it keep their values)',
        responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() },
      }),
    },
    '/numbering/': {
      get: n({
        operationId: 'listNumberingSequences',
        summary: 'The invoice and credit-note number sequences, with the number the next document gets',
        responses: { 200: json(z.object({ sequences: z.array(NumberingSequence) })), ...commonErrors() },
      }),
    },
    '/numbering/{document_type}': {
      parameters: [documentType],
      get: n({
        operationId: 'getNumberingSequence',
        summary: 'One number sequence',
        responses: { 200: json(NumberingSequence), ...commonErrors() },
      }),
      put: n({
        operationId: 'updateNumberingSequence',
        summary: 'Change the pattern, reset period or next value of a sequence',
        description:
          'Placeholders: {YYYY} {YY} {MM} {DD} (the creation date, UTC) and exactly one {SEQ} or {SEQ:n} (zero-padded to n digits). reset never | yearly | monthly starts the sequence again at 1 in a new period; ' +
          'a yearly reset needs a year placeholder and a monthly one year and month, or numbers would repeat (400). The invoice and credit-note patterns must differ in their fixed text. ' +
          'Numbers are taken when a draft is created, in the same transaction as the draft: no gaps and no duplicates, also under concurrency; a number already used explicitly is skipped.',
        requestBody: body(NumberingUpdate, { pattern: 'RE-{YYYY}-{SEQ:5}', reset: 'yearly', next_value: 1 }),
        responses: { 200: json(NumberingSequence.extend({ message: z.string() })), ...bodyErrors(), ...commonErrors() },
      }),
    },
  };
}
