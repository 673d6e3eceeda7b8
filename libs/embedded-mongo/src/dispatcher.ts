import type { Document } from 'bson';
import { adminCommands } from './commands/admin';
import { databaseCommands } from './commands/database';
import type { CommandContext, CommandHandler } from './commands/context';
import { handshakeCommands } from './commands/handshake';
import { readCommands } from './commands/read';
import { transactionCommands } from './commands/transactions';
import { blockedStatement, writeCommands } from './commands/write';
import { CommandError, ErrorCodes, toErrorReply } from './errors';
import { LockBusy } from './storage/store';

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

/**
 * Runs one command document and always returns a reply document (errors become `ok: 0`). A write
 * outside a transaction is never made to wait here: on a document locked by an open transaction it
 * goes ahead, and that transaction fails at commit. The server uses dispatchWaiting.
 */
export function dispatch(body: Document, db: string, base: DispatchContext): Document {
  return run(body, db, base, false);
}

/**
 * As dispatch, but a write outside a transaction whose statement's first document an open transaction
 * has written waits until that transaction ends and then runs from that statement on (as mongod does);
 * the reply is then a promise, and counts the statements before the wait too. Transactions end by
 * commit, abort or the 60 s lifetime sweep, so every wait ends.
 */
export function dispatchWaiting(body: Document, db: string, base: DispatchContext): Document | Promise<Document> {
  let reply: Document;
  try {
    reply = run(body, db, base, true);
  } catch (err) {
    // a findAndModify: nothing written yet, so it runs again whole
    if (!(err instanceof LockBusy)) throw err;
    return base.store.whenUnlocked(err.lockKey).then(() => dispatchWaiting(body, db, base));
  }
  const blocked = blockedStatement(reply);
  if (!blocked) return reply;
  const rest = { ...body, [blocked.field]: (body[blocked.field] as unknown[]).slice(blocked.index) };
  return base.store
    .whenUnlocked(blocked.lockKey)
    .then(() => dispatchWaiting(rest, db, base))
    .then((more) => mergeWriteReplies(reply, more, blocked.index));
}

/** One write command's reply from the reply of its first statements and that of the rest (from `offset` on). */
function mergeWriteReplies(first: Document, rest: Document, offset: number): Document {
  if (rest.ok !== 1) return rest;
  const shift = (items: unknown) => (Array.isArray(items) ? items.map((e: Document) => ({ ...e, index: e.index + offset })) : []);
  const merged: Document = { ...rest, n: (first.n ?? 0) + (rest.n ?? 0) };
  if (rest.nModified !== undefined) merged.nModified = (first.nModified ?? 0) + rest.nModified;
  const upserted = [...(first.upserted ?? []), ...shift(rest.upserted)];
  if (upserted.length) merged.upserted = upserted;
  const writeErrors = [...(first.writeErrors ?? []), ...shift(rest.writeErrors)];
  if (writeErrors.length) merged.writeErrors = writeErrors;
  return merged;
}

function run(body: Document, db: string, base: DispatchContext, mayWait: boolean): Document {
  const name = Object.keys(body)[0];
  try {
    if (!name) throw new CommandError(ErrorCodes.FailedToParse, 'empty command document');
    const handler = handlers.get(name) ?? lowerCased.get(name.toLowerCase());
    if (!handler) throw new CommandError(ErrorCodes.CommandNotFound, `no such command: '${name}'`);
    const data = TRANSACTION_CONTROL.has(name) ? base.store : base.transactions.dataFor(body);
    if (data === base.store) base.store.beginCommand(mayWait);
    const reply = handler(body, { ...base, db, data });
    if (Array.isArray(reply.writeErrors) && reply.writeErrors.length) base.transactions.abortOnError(body);
    return reply;
  } catch (err) {
    // findAndModify blocked on a transaction's lock: nothing is written yet, so the caller waits and runs it again.
    if (err instanceof LockBusy && mayWait) throw err;
    if (!TRANSACTION_CONTROL.has(name)) base.transactions.abortOnError(body);
    return toErrorReply(err);
  }
}
