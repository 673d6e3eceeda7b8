import type { Options } from 'amqplib';

/**
 * Queue type of the durable queues this bus declares (work, command, retry and parking queues).
 * `quorum` (the default): replicated over the RabbitMQ cluster's nodes (Raft), survives the loss of a minority
 * of nodes, and is the type RabbitMQ 4 recommends for durable work. `classic`: a single-node queue, for a local
 * broker that still holds classic queues of the same names (a queue's type cannot change on redeclaration:
 * see deploy/README.md "Moving to quorum queues"). RPC request queues stay classic whatever this says: their
 * requests expire per message and die with the caller's patience, nothing there is worth replicating.
 */
export type QueueType = 'quorum' | 'classic';

const typeArgs = (type: QueueType): Record<string, string> => (type === 'quorum' ? { 'x-queue-type': 'quorum' } : {});

/** A durable queue that holds work until it is handled (work, command and parking queues). */
export function durableQueueOptions(type: QueueType): Options.AssertQueue {
  return { durable: true, arguments: typeArgs(type) };
}

/**
 * A retry queue: messages wait `delayMs`, then are dead-lettered back to `workQueue` through the default
 * exchange. A quorum queue dead-letters at most once unless told otherwise, so the hop is made
 * `at-least-once` (which RabbitMQ allows only with `reject-publish` overflow): a message is never dropped
 * between the retry queue and its work queue; consumers dedupe a rare duplicate.
 */
export function retryQueueOptions(type: QueueType, delayMs: number, workQueue: string): Options.AssertQueue {
  const deadLetter = { 'x-message-ttl': delayMs, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': workQueue };
  return {
    durable: true,
    arguments:
      type === 'quorum'
        ? { ...typeArgs(type), ...deadLetter, 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' }
        : deadLetter,
  };
}
