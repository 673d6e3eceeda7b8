export { createBus, DEFAULTS } from './bus';
export { currentCorrelationId, currentMessageActor } from './correlation';
export { MessageValidationError, PermanentError, PublishError, RpcRemoteError, RpcTimeoutError, type ValidationIssue } from './errors';
export { HEADER } from './headers';
export type {
  Bus,
  BusLogger,
  Actor,
  BusOptions,
  CommandEnvelope,
  Envelope,
  EventEnvelope,
  HandlerContext,
  MessageRegistry,
  PublishOptions,
  RpcRequestEnvelope,
} from './types';
export { durableQueueOptions, retryQueueOptions, type QueueType } from './queue-types';
