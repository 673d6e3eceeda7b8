import type { CommandOf } from '@inv/runtime';
import type { InboundDeps } from '../support/deps';
import { processDocument } from '../usecases/process-document';

/** inbound.process-document.v1: reads and validates an accepted upload off the request path (redelivered after a restart, never lost). */
export const handleProcessDocument = (deps: InboundDeps, msg: CommandOf<'inbound.process-document.v1'>, attempt: number) =>
  processDocument(deps, msg.companyId, msg.data.inboundId, attempt);
