import { AsyncLocalStorage } from 'node:async_hooks';
import type { Identity } from './identity';

/** The authenticated caller of the request being handled: ids and the client address, never a secret. */
export interface RequestActor {
  keyId?: string;
  memberId?: string;
  role?: string;
  requestId?: string;
  clientIp?: string;
}

const store = new AsyncLocalStorage<RequestActor>();

export function actorOf(identity: Identity): RequestActor | undefined {
  if (identity.scope !== 'company') return undefined;
  const actor: RequestActor = {};
  if (identity.keyId) actor.keyId = identity.keyId;
  if (identity.memberId) actor.memberId = identity.memberId;
  if (identity.role) actor.role = identity.role;
  if (identity.requestId) actor.requestId = identity.requestId;
  if (identity.clientIp) actor.clientIp = identity.clientIp;
  return Object.keys(actor).length ? actor : undefined;
}

export const runWithActor = <T>(actor: RequestActor, fn: () => T): T => store.run(actor, fn);

/** The caller of the request being handled, if any (messages built now carry it as their envelope's actor). */
export const currentActor = (): RequestActor | undefined => store.getStore();
