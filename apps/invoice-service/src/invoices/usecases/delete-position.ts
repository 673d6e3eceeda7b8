import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import { eventMessage } from '@inv/runtime';
import type { InvoicesDeps } from '../deps';
import { changePositions } from './position-store';

export async function deletePosition(deps: InvoicesDeps, companyId: CompanyId, invoiceId: number, positionId: number) {
  await changePositions(deps, companyId, invoiceId, async (inv) => {
    if (!inv.positions.some((p) => p.id === positionId)) throw notFound(`position ${positionId}`);
    const announced = eventMessage('invoice.changed.v1', companyId, { invoiceId, action: 'position_deleted', positionId, fields: [] });
    return { positions: inv.positions.filter((p) => p.id !== positionId), value: undefined, messages: [announced] };
  });
}
