import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { invalidData } from '@inv/service-kit';
import type { PositionDoc } from '../db/invoices';
import type { InvoicesDeps } from '../deps';
import { changePositions } from './position-store';

export async function reorderPositions(deps: InvoicesDeps, companyId: CompanyId, invoiceId: number, order: number[]) {
  await changePositions(deps, companyId, invoiceId, async (inv) => {
    const current = new Set(inv.positions.map((p) => p.id));
    if (order.length !== current.size || new Set(order).size !== order.length || !order.every((id) => current.has(id))) {
      throw invalidData('the order must list every position id of the invoice exactly once', [
        { path: '(body)', message: `expected a permutation of [${[...current].join(', ')}]` },
      ]);
    }
    const byId = new Map(inv.positions.map((p) => [p.id, p]));
    const announced = eventMessage('invoice.changed.v1', companyId, { invoiceId, action: 'positions_reordered', fields: ['order'] });
    return { positions: order.map((id) => byId.get(id) as PositionDoc), value: undefined, messages: [announced] };
  });
}
