import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { ExportDeps } from '../usecases/deps';
import { finalizedProjector } from '../usecases/project-invoice';

type Finalized = z.output<(typeof messages.events)['invoice.finalized.v1']>;

/** A finalized invoice or credit note enters the export's read model (batched per company, see finalizedProjector). */
export const invoiceFinalizedHandler = (deps: ExportDeps): ((msg: Envelope<Finalized>) => Promise<void>) => finalizedProjector(deps);
