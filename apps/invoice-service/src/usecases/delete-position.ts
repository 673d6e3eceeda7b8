import { notFound } from '@inv/service-kit';
import { eventMessage } from '@inv/runtime';
import type { InvoiceDeps } from './deps';
import { loadDraft } from './load-invoice';
import { savePositions } from './position-store';

export async function deletePosition(deps: InvoiceDeps, companyId: string, invoiceId: number, positionId: number) {
  const inv = await loadDraft(deps, companyId, invoiceId);
  if (!inv.positions.some((p) => p.id === positionId)) throw notFound(`position ${positionId}`);
  await savePositions(
    deps,
    inv,
    inv.positions.filter((p) => p.id !== positionId),
  );
  await deps.publish(eventMessage('invoice.changed.v1', companyId, { invoiceId, action: 'position_deleted', positionId, fields: [] }));
}
