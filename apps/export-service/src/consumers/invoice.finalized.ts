import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { ExportDeps } from '../usecases/deps';
import { projectFinalized } from '../usecases/project-invoice';

/** A finalized invoice or credit note enters the export's read model. */
export const onInvoiceFinalized = (deps: ExportDeps, msg: Envelope<z.output<(typeof messages.events)['invoice.finalized.v1']>>) =>
  projectFinalized(deps, msg);
