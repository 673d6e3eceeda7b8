import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { ExportDeps } from '../usecases/deps';
import { projectStatusChanged } from '../usecases/project-invoice';

/** The payment state of a document in the export's read model moves forward. */
export const onInvoiceStatusChanged = (deps: ExportDeps, msg: Envelope<z.output<(typeof messages.events)['invoice.status-changed.v1']>>) =>
  projectStatusChanged(deps, msg);
