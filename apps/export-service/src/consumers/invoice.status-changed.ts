import type { EventOf } from '@inv/runtime';
import type { ExportDeps } from '../support/deps';
import { projectStatusChanged } from '../usecases/project-invoice';

/** The payment state of a document in the export's read model moves forward. */
export const onInvoiceStatusChanged = (deps: ExportDeps, msg: EventOf<'invoice.status-changed.v1'>) => projectStatusChanged(deps, msg);
