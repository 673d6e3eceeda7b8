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
        summary: 'List products',
        description: 'Newest first; `q` searches name and SKU.',
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
        summary: 'Create a product',
        description: '`unit_id` is a UN/ECE Rec 20 code; the SKU is unique within the company.',
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
      get: p({ operationId: 'getProduct', summary: 'Get a product', responses: { 200: json(Product), ...notFound(), ...commonErrors() } }),
      put: p({
        operationId: 'updateProduct',
        summary: 'Update a product',
        description:
          'Only the fields sent change; null removes description or sku. ' +
          'Positions filled from the product keep their copies: invoices, drafts included, never change with the product.',
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
        summary: 'Delete a product',
        description: 'Positions filled from it keep their values.',
        responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() },
      }),
    },
    '/numbering/': {
      get: n({
        operationId: 'listNumberingSequences',
        summary: 'List number sequences',
        description: 'The invoice and credit-note number sequences, with the number the next document gets.',
        responses: { 200: json(z.object({ sequences: z.array(NumberingSequence) })), ...commonErrors() },
      }),
    },
    '/numbering/{document_type}': {
      parameters: [documentType],
      get: n({
        operationId: 'getNumberingSequence',
        summary: 'Get a number sequence',
        responses: { 200: json(NumberingSequence), ...commonErrors() },
      }),
      put: n({
        operationId: 'updateNumberingSequence',
        summary: 'Update a number sequence',
        description:
          'Changes the pattern, the reset period or the next value. ' +
          'Placeholders: {YYYY} {YY} {MM} {DD} (the creation date, UTC) and exactly one {SEQ} or {SEQ:n} (zero-padded to n digits). reset never | yearly | monthly starts the sequence again at 1 in a new period; ' +
          'a yearly reset needs a year placeholder and a monthly one year and month, or numbers would repeat (400). The invoice and credit-note patterns must differ in their fixed text. ' +
          'Numbers are taken when a draft is created, in the same transaction as the draft: no gaps and no duplicates, also under concurrency; a number already used explicitly is skipped.',
        requestBody: body(NumberingUpdate, { pattern: 'RE-{YYYY}-{SEQ:5}', reset: 'yearly', next_value: 1 }),
        responses: { 200: json(NumberingSequence.extend({ message: z.string() })), ...bodyErrors(), ...commonErrors() },
      }),
    },
  };
}
