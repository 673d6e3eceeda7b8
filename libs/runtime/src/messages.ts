import type { z } from 'zod';
import { messages, type CompanyId, type Messages } from '@inv/contracts';
import { currentMessageActor } from '@inv/bus';
import type { OutboxMessage } from '@inv/outbox';
import { currentActor } from '@inv/service-kit';

/**
 * The caller of the request being handled (set by service-kit's requireIdentity), or else the actor of the message
 * being handled (set by the bus's consumer): what a request causes, however many messages later, stays its
 * caller's in the audit log.
 */
const actorField = () => {
  const actor = currentActor() ?? currentMessageActor();
  return actor ? { actor: actor as Record<string, string> } : {};
};

type Events = Messages['events'];
type Commands = Messages['commands'];

/** A typed, validated event for the outbox. */
export function eventMessage<K extends keyof Events & string>(
  type: K,
  companyId: CompanyId,
  data: z.input<Events[K]>,
  id?: string,
): OutboxMessage {
  return { kind: 'event', type, companyId, data: messages.events[type].parse(data), id, ...actorField() };
}

/** A typed, validated command for the outbox. */
export function commandMessage<K extends keyof Commands & string>(
  type: K,
  companyId: CompanyId,
  data: z.input<Commands[K]>,
  id?: string,
): OutboxMessage {
  return { kind: 'command', type, companyId, data: messages.commands[type].parse(data), id, ...actorField() };
}

/** The API fields a request gave, for an audit event (`fields`): their names, never their values. */
export const givenFields = (input: object): string[] =>
  Object.entries(input)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
