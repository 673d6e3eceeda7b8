import { commands } from './commands';
import { events } from './events';
import { rpc } from './rpc';

/**
 * The registry of bus messages: events (events.ts), commands (commands.ts) and RPCs (rpc.ts), each a zod schema of
 * its `data` under a versioned type.
 */
export { commands, events, rpc };

export const messages = { events, commands, rpc };
export type Messages = typeof messages;
