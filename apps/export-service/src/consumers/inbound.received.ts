import type { EventOf } from '@inv/runtime';
import type { ExportDeps } from '../support/deps';
import { projectReceivedInvoice } from '../usecases/project-supplier-invoice';

/** inbound.received.v1: a valid received invoice becomes a supplier booking of later exports. */
export const onInboundReceived = (deps: ExportDeps, msg: EventOf<'inbound.received.v1'>) => projectReceivedInvoice(deps, msg);
