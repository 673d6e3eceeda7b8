import type { PositionCreate } from '@inv/contracts';
import { invalidData } from '@inv/service-kit';
import type { InvoiceDeps } from './deps';
import { MAX_POSITIONS } from './draft-rules';
import { loadDraft } from './load-invoice';
import { assertPositionAmounts, savePositions, toPosition } from './position-store';

export async function addPosition(deps: InvoiceDeps, companyId: string, invoiceId: number, input: PositionCreate): Promise<number> {
  const inv = await loadDraft(deps, companyId, invoiceId);
  if (inv.positions.length >= MAX_POSITIONS) throw invalidData(`an invoice has at most ${MAX_POSITIONS} positions`);
  const position = toPosition(0, input, inv.taxTreatmentId);
  assertPositionAmounts(position, input.single_net_amount);
  position.id = await deps.counters.next('position');
  await savePositions(deps, inv, [...inv.positions, position]);
  return position.id;
}
