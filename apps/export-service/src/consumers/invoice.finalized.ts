import type { EventOf } from '@inv/runtime';
import type { ExportDeps } from '../support/deps';
import { finalizedProjector } from '../usecases/project-invoice';

/** A finalized invoice or credit note enters the export's read model (batched per company, see finalizedProjector). */
export const invoiceFinalizedHandler = (deps: ExportDeps): ((msg: EventOf<'invoice.finalized.v1'>) => Promise<void>) =>
  finalizedProjector(deps);
