import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../errors';
import type { CommandHandler } from './context';

function splitNamespace(ns: unknown): { db: string; name: string } {
  if (typeof ns !== 'string' || !ns.includes('.'))
    throw new CommandError(ErrorCodes.BadValue, `Invalid namespace specified '${String(ns)}'`);
  const dot = ns.indexOf('.');
  return { db: ns.slice(0, dot), name: ns.slice(dot + 1) };
}

/** `renameCollection` (run against admin with full namespaces, as the driver sends it). */
const renameCollection: CommandHandler = (cmd, ctx) => {
  const from = splitNamespace(cmd.renameCollection);
  const to = splitNamespace(cmd.to);
  const source = ctx.store.collection(from.db, from.name);
  if (!source) throw new CommandError(ErrorCodes.NamespaceNotFound, 'source namespace does not exist');
  if (ctx.store.collection(to.db, to.name)) {
    if (cmd.dropTarget !== true) throw new CommandError(ErrorCodes.NamespaceExists, 'target namespace exists');
    ctx.store.drop(to.db, to.name);
  }
  ctx.store.rename(source, to.db, to.name);
  return { ok: 1 };
};

/** `dbStats`: counts only; sizes are not tracked by an in-memory store. */
const dbStats: CommandHandler = (_cmd, ctx) => {
  const colls = ctx.store.collections(ctx.db);
  const stats: Document = {
    db: ctx.db,
    collections: colls.length,
    views: 0,
    objects: colls.reduce((n, c) => n + c.docs.size, 0),
    dataSize: 0,
    storageSize: 0,
    indexes: colls.reduce((n, c) => n + c.indexSpecs().length, 0),
    indexSize: 0,
    ok: 1,
  };
  return stats;
};

export const databaseCommands: Record<string, CommandHandler> = { renameCollection, dbStats };
