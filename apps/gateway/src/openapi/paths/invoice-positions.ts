import {
  MessageBody,
  PositionAdded,
  PositionUpdated,
  PositionCreateInput,
  PositionReorder,
  PositionUpdate,
  Position,
  Positions,
} from '@inv/contracts';
import { body, bodyErrors, commonErrors, conflict, intId, json, notFound, type Operation } from '../builder';

/** The positions of an invoice (part of invoicePaths). */
export function positionPaths(op: (o: Omit<Operation, 'tags'>) => Operation): Record<string, Record<string, unknown>> {
  const id = intId('id', 'invoice id');
  const notDraft = () => conflict('only drafts can be changed (INVOICE_NOT_DRAFT) or changed meanwhile (CONCURRENT_MODIFICATION)');
  return {
    '/invoice/{id}/positions': {
      parameters: [id],
      get: op({
        operationId: 'listPositions',
        summary: 'List the positions of an invoice',
        responses: { 200: json(Positions), ...notFound(), ...commonErrors() },
      }),
      post: op({
        operationId: 'addPosition',
        summary: 'Add a position',
        description:
          'The invoice totals are recalculated. ' +
          'At most 1,000 positions per invoice. single_net_amount may differ from quantity x unit_net_amount (rounded half up to the cent) by at most 0.01; the service value wins. ' +
          'With product_id the product fills title, description, unit_id, unit_net_amount, tax_rate and tax_treatment_id where the request leaves them out; the position keeps a copy (later product edits do not change it). ' +
          'An unknown product_id answers 400, an inactive product 409 PRODUCT_INACTIVE.',
        requestBody: body(PositionCreateInput, { product_id: 12, quantity: 7.5 }),
        responses: {
          201: json(PositionAdded, 'created'),
          ...notFound(),
          ...conflict('the product is inactive (PRODUCT_INACTIVE) or the invoice is no draft (INVOICE_NOT_DRAFT)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/positions/reorder': {
      parameters: [id],
      put: op({
        operationId: 'reorderPositions',
        summary: 'Reorder positions',
        description: 'The body names every position id once.',
        requestBody: body(PositionReorder, [3, 1, 2]),
        responses: { 200: json(MessageBody), ...notFound(), ...notDraft(), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/invoice/{id}/position/{position_id}': {
      parameters: [id, intId('position_id', 'position id')],
      get: op({
        operationId: 'getPosition',
        summary: 'Get a position',
        responses: { 200: json(Position), ...notFound(), ...commonErrors() },
      }),
      put: op({
        operationId: 'updatePosition',
        summary: 'Update a position',
        description: 'Only the fields sent change.',
        requestBody: body(PositionUpdate),
        responses: { 200: json(PositionUpdated), ...notFound(), ...notDraft(), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'deletePosition',
        summary: 'Delete a position',
        responses: { 200: json(MessageBody), ...notFound(), ...notDraft(), ...commonErrors() },
      }),
    },
    // the plural spelling, as POST /invoice/{id}/positions has it: the same operations
    '/invoice/{id}/positions/{position_id}': {
      parameters: [id, intId('position_id', 'position id')],
      get: op({
        operationId: 'getPositionPlural',
        summary: 'Get a position (alias)',
        description: 'Alias of `/invoice/{id}/position/{position_id}`.',
        responses: { 200: json(Position), ...notFound(), ...commonErrors() },
      }),
      put: op({
        operationId: 'updatePositionPlural',
        summary: 'Update a position (alias)',
        description: 'Alias of `/invoice/{id}/position/{position_id}`.',
        requestBody: body(PositionUpdate),
        responses: { 200: json(PositionUpdated), ...notFound(), ...notDraft(), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'deletePositionPlural',
        summary: 'Delete a position (alias)',
        description: 'Alias of `/invoice/{id}/position/{position_id}`.',
        responses: { 200: json(MessageBody), ...notFound(), ...notDraft(), ...commonErrors() },
      }),
    },
  };
}
