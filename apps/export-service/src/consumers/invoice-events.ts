import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { ExportDeps } from '../usecases/deps';
import { projectFinalized, projectStatusChanged } from '../usecases/project-invoice';

type Events = typeof messages.events;
type InvoiceEvent =
  | (Envelope<z.output<Events['invoice.finalized.v1']>> & { type: 'invoice.finalized.v1' })
  | (Envelope<z.output<Events['invoice.status-changed.v1']>> & { type: 'invoice.status-changed.v1' });

/** invoice.finalized.v1 and invoice.status-changed.v1 feed the export's read model. */
export function onInvoiceEvent(deps: ExportDeps, msg: InvoiceEvent) {
  return msg.type === 'invoice.finalized.v1' ? projectFinalized(deps, msg) : projectStatusChanged(deps, msg);
}
