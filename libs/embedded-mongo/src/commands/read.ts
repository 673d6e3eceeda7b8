import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../errors';
import { isPlainObject, keyString, valuesAtPath } from '../util/values';
import { collectionName, type CommandHandler } from './context';
import { matching, runAggregate, runFind } from './query';

const find: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'find');
  const coll = ctx.data.collection(ctx.db, name);
  const docs = runFind(coll, {
    filter: cmd.filter,
    sort: cmd.sort,
    skip: cmd.skip,
    limit: cmd.limit,
    projection: cmd.projection,
  });
  const singleBatch = cmd.singleBatch === true || (typeof cmd.limit === 'number' && cmd.limit < 0);
  return { cursor: ctx.cursors.open(`${ctx.db}.${name}`, docs, cmd.batchSize, singleBatch), ok: 1 };
};

const getMore: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'collection');
  return { cursor: ctx.cursors.getMore(cmd.getMore, `${ctx.db}.${name}`, cmd.batchSize), ok: 1 };
};

const killCursors: CommandHandler = (cmd, ctx) => ({
  ...ctx.cursors.kill(Array.isArray(cmd.cursors) ? cmd.cursors : []),
  ok: 1,
});

const count: CommandHandler = (cmd, ctx) => {
  const coll = ctx.data.collection(ctx.db, collectionName(cmd, 'count'));
  let n = matching(coll, cmd.query).length;
  const skip = Math.max(0, Number(cmd.skip ?? 0));
  n = Math.max(0, n - skip);
  const limit = Math.abs(Number(cmd.limit ?? 0));
  if (limit) n = Math.min(n, limit);
  return { n, ok: 1 };
};

const distinct: CommandHandler = (cmd, ctx) => {
  if (typeof cmd.key !== 'string') throw new CommandError(ErrorCodes.TypeMismatch, 'distinct key must be a string');
  const coll = ctx.data.collection(ctx.db, collectionName(cmd, 'distinct'));
  const seen = new Map<string, unknown>();
  for (const doc of matching(coll, cmd.query)) {
    for (const v of valuesAtPath(doc, cmd.key)) {
      if (v === undefined) continue;
      const k = keyString(v);
      if (!seen.has(k)) seen.set(k, v);
    }
  }
  return { values: [...seen.values()], ok: 1 };
};

const aggregate: CommandHandler = (cmd, ctx) => {
  if (!Array.isArray(cmd.pipeline)) throw new CommandError(ErrorCodes.TypeMismatch, "'pipeline' option must be specified as an array");
  const pipeline = cmd.pipeline as Document[];
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) throw new CommandError(ErrorCodes.TypeMismatch, 'Each element of the pipeline array must be an object');
    const op = Object.keys(stage)[0];
    if (op === '$out' || op === '$merge') {
      throw new CommandError(ErrorCodes.BadValue, `${op} is not supported by the embedded server`);
    }
  }
  const target = cmd.aggregate;
  const resolve = (n: string) => ctx.data.collection(ctx.db, n)?.all() ?? [];
  let docs: Document[];
  let ns: string;
  if (typeof target === 'string') {
    docs = runAggregate(ctx.data.collection(ctx.db, target), pipeline, resolve);
    ns = `${ctx.db}.${target}`;
  } else {
    // `aggregate: 1` (database-level, e.g. $documents): the pipeline itself produces the input.
    docs = runAggregate([], pipeline, resolve);
    ns = `${ctx.db}.$cmd.aggregate`;
  }
  const batchSize = isPlainObject(cmd.cursor) ? cmd.cursor.batchSize : undefined;
  return { cursor: ctx.cursors.open(ns, docs, batchSize), ok: 1 };
};

export const readCommands: Record<string, CommandHandler> = { find, getMore, killCursors, count, distinct, aggregate };
