import type { Document } from 'bson';
import { adminCommands } from './commands/admin';
import { databaseCommands } from './commands/database';
import type { CommandContext, CommandHandler } from './commands/context';
import { handshakeCommands } from './commands/handshake';
import { readCommands } from './commands/read';
import { transactionCommands } from './commands/transactions';
import { writeCommands } from './commands/write';
import { CommandError, ErrorCodes, toErrorReply } from './errors';

const handlers = new Map<string, CommandHandler>(
  Object.entries({
    ...handshakeCommands,
    ...readCommands,
    ...writeCommands,
    ...adminCommands,
    ...databaseCommands,
    ...transactionCommands,
  }),
);
// Command names are matched exactly first; the lower-cased table catches legacy spellings.
const lowerCased = new Map<string, CommandHandler>([...handlers].map(([name, h]) => [name.toLowerCase(), h]));

const TRANSACTION_CONTROL = new Set(['commitTransaction', 'abortTransaction']);

export type DispatchContext = Omit<CommandContext, 'db' | 'data'>;

/** Runs one command document and always returns a reply document (errors become `ok: 0`). */
export function dispatch(body: Document, db: string, base: DispatchContext): Document {
  const name = Object.keys(body)[0];
  try {
    if (!name) throw new CommandError(ErrorCodes.FailedToParse, 'empty command document');
    const handler = handlers.get(name) ?? lowerCased.get(name.toLowerCase());
    if (!handler) throw new CommandError(ErrorCodes.CommandNotFound, `no such command: '${name}'`);
    const data = TRANSACTION_CONTROL.has(name) ? base.store : base.transactions.dataFor(body);
    const reply = handler(body, { ...base, db, data });
    if (Array.isArray(reply.writeErrors) && reply.writeErrors.length) base.transactions.abortOnError(body);
    return reply;
  } catch (err) {
    if (!TRANSACTION_CONTROL.has(name)) base.transactions.abortOnError(body);
    return toErrorReply(err);
  }
}
