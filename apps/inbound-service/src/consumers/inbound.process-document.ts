import type { CommandOf } from '@inv/runtime';
import type { InboundDeps } from '../support/deps';

/**
 * inbound.process-document.v1: queues the accepted upload for reading (workers/document-scheduler.ts) and is
 * acknowledged at once. The document itself (PROCESSING in MongoDB) is the durable work: after a restart, or when this
 * process is gone, a sweep finds it; a redelivered command queues a document that is then claimed once, or not at all.
 */
export const handleProcessDocument = async (deps: InboundDeps, msg: CommandOf<'inbound.process-document.v1'>) =>
  deps.scheduler.enqueue(msg.companyId, msg.data.inboundId);
