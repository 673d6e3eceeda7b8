import { Binary, type Document } from 'bson';
import { CommandError, ErrorCodes } from '../errors';
import type { Collection } from '../storage/collection';
import type { IndexSpec } from '../storage/index-manager';
import { mingoQuery } from '../util/mingo';
import { isPlainObject, keyString } from '../util/values';
import { collectionName, type CommandHandler } from './context';

const create: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'create');
  if (ctx.store.collection(ctx.db, name)) {
    throw new CommandError(ErrorCodes.NamespaceExists, `Collection ${ctx.db}.${name} already exists.`);
  }
  const { create: _c, $db: _d, lsid: _l, $clusterTime: _t, writeConcern: _w, ...options } = cmd;
  ctx.store.create(ctx.db, name, options);
  return { ok: 1 };
};

const drop: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'drop');
  const coll = ctx.store.collection(ctx.db, name);
  // MongoDB 7 answers ok for a missing collection as well.
  ctx.store.drop(ctx.db, name);
  return { nIndexesWas: coll ? coll.indexSpecs().length : 0, ns: `${ctx.db}.${name}`, ok: 1 };
};

const dropDatabase: CommandHandler = (_cmd, ctx) => {
  ctx.store.dropDatabase(ctx.db);
  return { dropped: ctx.db, ok: 1 };
};

export function defaultIndexName(key: Document): string {
  return Object.entries(key)
    .map(([f, dir]) => `${f}_${String(dir)}`)
    .join('_');
}

const IGNORED_INDEX_OPTIONS = new Set(['ns', 'background']);

function normalizeSpec(raw: unknown): IndexSpec {
  if (!isPlainObject(raw) || !isPlainObject(raw.key) || !Object.keys(raw.key).length) {
    throw new CommandError(ErrorCodes.FailedToParse, 'index specification must contain a non-empty key document');
  }
  const spec: IndexSpec = { v: 2, key: raw.key, name: typeof raw.name === 'string' ? raw.name : defaultIndexName(raw.key) };
  for (const [k, v] of Object.entries(raw)) if (!IGNORED_INDEX_OPTIONS.has(k) && !(k in spec)) spec[k] = v;
  return spec;
}

function optionsOf(spec: IndexSpec): string {
  const { v: _v, key: _k, name: _n, ...rest } = spec;
  return keyString(Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b))));
}

function addIndex(coll: Collection, spec: IndexSpec): boolean {
  for (const existing of coll.indexSpecs()) {
    const sameKey = keyString(existing.key) === keyString(spec.key);
    if (existing.name === spec.name) {
      if (sameKey && (existing.name === '_id_' || optionsOf(existing) === optionsOf(spec))) return false;
      const detail = `Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(existing)}`;
      if (sameKey) {
        throw new CommandError(
          ErrorCodes.IndexOptionsConflict,
          `An equivalent index already exists with the same name but different options. ${detail}`,
        );
      }
      throw new CommandError(
        ErrorCodes.IndexKeySpecsConflict,
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. ${detail}`,
      );
    }
    if (!sameKey) continue;
    if (existing.name === '_id_') return false;
    const message =
      optionsOf(existing) === optionsOf(spec)
        ? `Index already exists with a different name: ${existing.name}`
        : `Index with name: ${existing.name} already exists with different options`;
    throw new CommandError(ErrorCodes.IndexOptionsConflict, message);
  }
  coll.addIndex(spec);
  return true;
}

const createIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'createIndexes');
  if (!Array.isArray(cmd.indexes) || !cmd.indexes.length)
    throw new CommandError(ErrorCodes.BadValue, 'Must specify at least one index to create');
  const specs = cmd.indexes.map(normalizeSpec);
  const existed = ctx.store.collection(ctx.db, name);
  const coll = existed ?? ctx.store.create(ctx.db, name);
  const before = coll.indexSpecs().length;
  let created = 0;
  for (const spec of specs) if (addIndex(coll, spec)) created++;
  const reply: Document = {
    numIndexesBefore: before,
    numIndexesAfter: coll.indexSpecs().length,
    createdCollectionAutomatically: !existed,
    ok: 1,
  };
  if (!created) reply.note = 'all indexes already exist';
  return reply;
};

const listIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'listIndexes');
  const coll = ctx.store.collection(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns does not exist: ${ctx.db}.${name}`);
  return { cursor: ctx.cursors.open(`${ctx.db}.${name}`, coll.indexSpecs(), undefined), ok: 1 };
};

const dropIndexes: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'dropIndexes');
  const coll = ctx.store.collection(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns not found ${ctx.db}.${name}`);
  const before = coll.indexSpecs().length;
  const target = cmd.index;
  if (target === '*') {
    for (const spec of coll.indexSpecs()) if (spec.name !== '_id_') coll.dropIndex(spec.name);
  } else {
    const names = Array.isArray(target) ? target : [target];
    for (const t of names) {
      const spec =
        typeof t === 'string'
          ? coll.indexSpecs().find((s) => s.name === t)
          : coll.indexSpecs().find((s) => keyString(s.key) === keyString(t));
      if (!spec)
        throw new CommandError(
          ErrorCodes.IndexNotFound,
          `index not found with name [${String(typeof t === 'string' ? t : JSON.stringify(t))}]`,
        );
      coll.dropIndex(spec.name);
    }
  }
  return { nIndexesWas: before, ok: 1 };
};

const listCollections: CommandHandler = (cmd, ctx) => {
  let infos: Document[] = ctx.store.collections(ctx.db).map((c) => ({
    name: c.name,
    type: 'collection',
    options: c.options,
    info: { readOnly: false, uuid: new Binary(c.uuid, Binary.SUBTYPE_UUID) },
    idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
  }));
  if (isPlainObject(cmd.filter) && Object.keys(cmd.filter).length) {
    const q = mingoQuery(cmd.filter);
    infos = infos.filter((i) => q.test(i));
  }
  if (cmd.nameOnly) infos = infos.map((i) => ({ name: i.name, type: i.type }));
  const batchSize = isPlainObject(cmd.cursor) ? cmd.cursor.batchSize : undefined;
  return { cursor: ctx.cursors.open(`${ctx.db}.$cmd.listCollections`, infos, batchSize), ok: 1 };
};

const listDatabases: CommandHandler = (cmd, ctx) => {
  const databases = ctx.store.databases().map((name) => ({ name, sizeOnDisk: 0, empty: false }));
  if (cmd.nameOnly) return { databases: databases.map(({ name }) => ({ name })), ok: 1 };
  return { databases, totalSize: 0, totalSizeMb: 0, ok: 1 };
};

const collMod: CommandHandler = (cmd, ctx) => {
  const name = collectionName(cmd, 'collMod');
  const coll = ctx.store.collection(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns does not exist: ${ctx.db}.${name}`);
  if (isPlainObject(cmd.index)) {
    const want = cmd.index;
    const ix = [...coll.indexes.values()].find(
      (i) => i.spec.name === want.name || (want.keyPattern && keyString(i.spec.key) === keyString(want.keyPattern)),
    );
    if (!ix) throw new CommandError(ErrorCodes.IndexNotFound, 'cannot find index');
    if (typeof want.expireAfterSeconds === 'number') coll.setIndexOption(ix, 'expireAfterSeconds', want.expireAfterSeconds);
  }
  return { ok: 1 };
};

export const adminCommands: Record<string, CommandHandler> = {
  create,
  drop,
  dropDatabase,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: dropIndexes,
  listCollections,
  listDatabases,
  collMod,
};
