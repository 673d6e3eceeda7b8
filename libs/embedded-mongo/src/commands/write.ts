import { ObjectId, type Document } from 'bson';
import { CommandError, ErrorCodes } from '../errors';
import type { Collection } from '../storage/collection';
import { LockBusy, type DataAccess } from '../storage/store';
import { isPlainObject, keyString } from '../util/values';
import { collectionName, type CommandContext, type CommandHandler } from './context';
import { matching, project, runFind } from './query';
import { applyUpdate, changed, isOperatorUpdate, upsertSeed, validateUpdate, withIdFirst, type UpdateSpec } from './update-engine';

interface WriteError {
  index: number;
  code: number;
  errmsg: string;
  [extra: string]: unknown;
}

/** Errors that fail the whole command (and abort a transaction) instead of one statement. */
function isCommandLevel(err: unknown): boolean {
  return err instanceof CommandError && (err.code === ErrorCodes.WriteConflict || err.code === ErrorCodes.NoSuchTransaction);
}

function toWriteError(index: number, err: unknown): WriteError {
  if (err instanceof CommandError) return { index, code: err.code, errmsg: err.message, ...err.extra };
  return { index, code: ErrorCodes.BadValue, errmsg: err instanceof Error ? err.message : String(err) };
}

/**
 * A write outside a transaction stopped at a statement whose first document an open transaction has written
 * (LockBusy): the statements before it are applied and counted in the reply; the server waits for the lock and
 * runs the command again from `index` on (see dispatchWaiting).
 */
export interface BlockedStatement {
  /** The command's statement array: documents, updates or deletes. */
  field: string;
  index: number;
  lockKey: string;
}

const blocked = new WeakMap<Document, BlockedStatement>();

/** Where a write command's reply stopped for a transaction's lock, if it did. */
export function blockedStatement(reply: Document): BlockedStatement | undefined {
  return blocked.get(reply);
}

interface StatementsRun {
  errors: WriteError[];
  blocked?: BlockedStatement;
}

/** Runs each statement, collecting per-statement errors the way the server reports them. */
function eachStatement<T>(
  data: DataAccess,
  field: string,
  items: T[],
  ordered: boolean,
  run: (item: T, index: number) => void,
): StatementsRun {
  const errors: WriteError[] = [];
  for (let i = 0; i < items.length; i++) {
    data.beginStatement?.();
    try {
      run(items[i], i);
    } catch (err) {
      if (err instanceof LockBusy) return { errors, blocked: { field, index: i, lockKey: err.lockKey } };
      if (isCommandLevel(err)) throw err;
      errors.push(toWriteError(i, err));
      if (ordered) break;
    }
  }
  return { errors };
}

function finish(reply: Document, outcome: StatementsRun): Document {
  if (outcome.errors.length) reply.writeErrors = outcome.errors;
  if (outcome.blocked) blocked.set(reply, outcome.blocked);
  return reply;
}

export function insertOne(ctx: CommandContext, coll: Collection, raw: unknown): Document {
  if (!isPlainObject(raw)) throw new CommandError(ErrorCodes.TypeMismatch, 'document to insert must be an object');
  if (Array.isArray(raw._id)) throw new CommandError(ErrorCodes.BadValue, "can't use an array for _id");
  const doc = withIdFirst(raw._id === undefined ? { _id: new ObjectId(), ...raw } : raw);
  ctx.data.beforeWrite(coll, keyString(doc._id));
  coll.insert(doc);
  return doc;
}

const insert: CommandHandler = (cmd, ctx) => {
  const coll = ctx.data.collectionForWrite(ctx.db, collectionName(cmd, 'insert'));
  const docs = Array.isArray(cmd.documents) ? cmd.documents : [];
  let n = 0;
  const outcome = eachStatement(ctx.data, 'documents', docs, cmd.ordered !== false, (doc) => {
    insertOne(ctx, coll, doc);
    n++;
  });
  return finish({ n, ok: 1 }, outcome);
};

interface UpdateOutcome {
  n: number;
  nModified: number;
  upsertedId?: unknown;
  before?: Document;
  after?: Document;
}

/** One update statement (shared by `update` and `findAndModify`). */
export function updateDocs(
  ctx: CommandContext,
  coll: Collection,
  stmt: { q: Document; u: UpdateSpec; multi?: boolean; upsert?: boolean; arrayFilters?: Document[]; sort?: Document },
): UpdateOutcome {
  validateUpdate(stmt.u);
  if (!isPlainObject(stmt.q)) throw new CommandError(ErrorCodes.TypeMismatch, 'query filter must be an object');
  if (stmt.multi && !Array.isArray(stmt.u) && !isOperatorUpdate(stmt.u)) {
    throw new CommandError(ErrorCodes.FailedToParse, 'multi update is not supported for replacement-style update');
  }
  let targets = stmt.sort ? runFind(coll, { filter: stmt.q, sort: stmt.sort }) : matching(coll, stmt.q);
  if (!stmt.multi) targets = targets.slice(0, 1);
  if (!targets.length) {
    if (!stmt.upsert) return { n: 0, nModified: 0 };
    const seed = Array.isArray(stmt.u) || isOperatorUpdate(stmt.u) ? upsertSeed(stmt.q) : pickId(stmt.q);
    const doc = applyUpdate(seed, stmt.u, { arrayFilters: stmt.arrayFilters, inserting: true });
    insertOne(ctx, coll, doc);
    return { n: 1, nModified: 0, upsertedId: doc._id, after: doc };
  }
  let nModified = 0;
  let before: Document | undefined;
  let after: Document | undefined;
  for (const doc of targets) {
    const next = applyUpdate(doc, stmt.u, { arrayFilters: stmt.arrayFilters, filter: stmt.q });
    before ??= doc;
    after ??= next;
    if (!changed(doc, next)) continue;
    const id = keyString(doc._id);
    ctx.data.beforeWrite(coll, id);
    coll.replace(id, next);
    nModified++;
  }
  return { n: targets.length, nModified, before, after };
}

function pickId(filter: Document): Document {
  const seed = upsertSeed(filter);
  return seed._id === undefined ? {} : { _id: seed._id };
}

const update: CommandHandler = (cmd, ctx) => {
  const coll = ctx.data.collectionForWrite(ctx.db, collectionName(cmd, 'update'));
  const stmts = Array.isArray(cmd.updates) ? (cmd.updates as Document[]) : [];
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const outcome = eachStatement(ctx.data, 'updates', stmts, cmd.ordered !== false, (s, index) => {
    const r = updateDocs(ctx, coll, {
      q: s.q,
      u: s.u,
      multi: s.multi === true,
      upsert: s.upsert === true,
      arrayFilters: s.arrayFilters,
    });
    n += r.n;
    nModified += r.nModified;
    if (r.upsertedId !== undefined) upserted.push({ index, _id: r.upsertedId });
  });
  const reply: Document = { n, nModified, ok: 1 };
  if (upserted.length) reply.upserted = upserted;
  return finish(reply, outcome);
};

const del: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'delete');
  const stmts = Array.isArray(cmd.deletes) ? (cmd.deletes as Document[]) : [];
  let n = 0;
  const outcome = eachStatement(ctx.data, 'deletes', stmts, cmd.ordered !== false, (s) => {
    const coll = ctx.data.collection(ctx.db, name);
    if (!coll) return;
    let targets = matching(coll, s.q);
    if (Number(s.limit) === 1) targets = targets.slice(0, 1);
    for (const doc of targets) {
      const id = keyString(doc._id);
      ctx.data.beforeWrite(coll, id);
      if (coll.remove(id)) n++;
    }
  });
  return finish({ n, ok: 1 }, outcome);
};

const findAndModify: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'findAndModify' in cmd ? 'findAndModify' : 'findandmodify');
  const query = isPlainObject(cmd.query) ? cmd.query : {};
  const sort = isPlainObject(cmd.sort) && Object.keys(cmd.sort).length ? cmd.sort : undefined;
  if (cmd.remove) {
    const coll = ctx.data.collection(ctx.db, name);
    const doc = runFind(coll, { filter: query, sort, limit: 1 })[0];
    if (coll && doc) {
      ctx.data.beforeWrite(coll, keyString(doc._id));
      coll.remove(keyString(doc._id));
    }
    return { lastErrorObject: { n: doc ? 1 : 0 }, value: project(doc ?? null, cmd.fields), ok: 1 };
  }
  if (cmd.update === undefined) throw new CommandError(ErrorCodes.FailedToParse, 'Either an update or remove=true must be specified');
  const coll = ctx.data.collectionForWrite(ctx.db, name);
  const r = updateDocs(ctx, coll, { q: query, u: cmd.update, upsert: cmd.upsert === true, arrayFilters: cmd.arrayFilters, sort });
  const lastErrorObject: Document = { n: r.n, updatedExisting: r.upsertedId === undefined && r.n > 0 };
  if (r.upsertedId !== undefined) lastErrorObject.upserted = r.upsertedId;
  const value = cmd.new ? (r.after ?? null) : (r.before ?? null);
  return { lastErrorObject, value: project(value, cmd.fields), ok: 1 };
};

export const writeCommands: Record<string, CommandHandler> = {
  insert,
  update,
  delete: del,
  findAndModify,
  findandmodify: findAndModify,
};
