import type { EventOf } from '@inv/runtime';
import type { ExportDeps } from '../support/deps';
import { projectDeletedInvoice } from '../usecases/project-supplier-invoice';

/** inbound.deleted.v1: the received invoice leaves the read model. */
export const onInboundDeleted = (deps: ExportDeps, msg: EventOf<'inbound.deleted.v1'>) => projectDeletedInvoice(deps, msg);
