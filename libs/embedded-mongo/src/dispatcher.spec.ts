import { Binary } from 'bson';
import { CursorRegistry } from './cursors';
import { dispatch, type DispatchContext } from './dispatcher';
import { Store } from './storage/store';
import { TransactionManager } from './transactions/manager';

function context(): DispatchContext {
  const store = new Store();
  return {
    store,
    cursors: new CursorRegistry(),
    transactions: new TransactionManager(store),
    server: { address: '127.0.0.1:1234', setName: 'rs0', connectionId: 7 },
  };
}

describe('dispatch', () => {
  it('answers unknown and empty commands with MongoDB-style errors', () => {
    const ctx = context();
    expect(dispatch({ bogus: 1 }, 'db', ctx)).toEqual({ ok: 0, errmsg: "no such command: 'bogus'", code: 59, codeName: 'CommandNotFound' });
    expect(dispatch({}, 'db', ctx)).toMatchObject({ ok: 0, code: 9 });
  });

  it('describes a single-node replica set without topologyVersion', () => {
    const hello = dispatch({ hello: 1, helloOk: true }, 'admin', context());
    expect(hello).toMatchObject({
      isWritablePrimary: true,
      helloOk: true,
      setName: 'rs0',
      hosts: ['127.0.0.1:1234'],
      me: '127.0.0.1:1234',
      primary: '127.0.0.1:1234',
      logicalSessionTimeoutMinutes: 30,
      connectionId: 7,
    });
    expect(hello.topologyVersion).toBeUndefined();
    expect(dispatch({ isMaster: 1 }, 'admin', context())).toMatchObject({ ismaster: true });
    expect(dispatch({ ismaster: 1 }, 'admin', context()).isWritablePrimary).toBeUndefined();
  });

  it('creates collections once (NamespaceExists 48) and reports duplicate keys per statement', () => {
    const ctx = context();
    expect(dispatch({ create: 'c' }, 'db', ctx)).toEqual({ ok: 1 });
    expect(dispatch({ create: 'c' }, 'db', ctx)).toMatchObject({ ok: 0, code: 48, codeName: 'NamespaceExists' });
    const reply = dispatch({ insert: 'c', documents: [{ _id: 1 }, { _id: 1 }, { _id: 2 }], ordered: false }, 'db', ctx);
    expect(reply).toMatchObject({ ok: 1, n: 2, writeErrors: [{ index: 1, code: 11000, keyPattern: { _id: 1 }, keyValue: { _id: 1 } }] });
  });

  it('reports index conflicts with the codes mongoose and syncIndexes expect', () => {
    const ctx = context();
    const create = (index: Record<string, unknown>) => dispatch({ createIndexes: 'c', indexes: [index] }, 'db', ctx);
    expect(create({ key: { a: 1 }, name: 'a_1' })).toMatchObject({
      ok: 1,
      numIndexesBefore: 1,
      numIndexesAfter: 2,
      createdCollectionAutomatically: true,
    });
    expect(create({ key: { a: 1 }, name: 'a_1', background: true })).toMatchObject({ ok: 1, note: 'all indexes already exist' });
    expect(create({ key: { a: 1 }, name: 'a_1', unique: true })).toMatchObject({ ok: 0, code: 85 });
    expect(create({ key: { a: -1 }, name: 'a_1' })).toMatchObject({ ok: 0, code: 86 });
    expect(create({ key: { a: 1 }, name: 'other' })).toMatchObject({
      ok: 0,
      code: 85,
      errmsg: 'Index already exists with a different name: a_1',
    });
    expect(dispatch({ dropIndexes: 'c', index: 'nope' }, 'db', ctx)).toMatchObject({ ok: 0, code: 27 });
    expect(dispatch({ dropIndexes: 'c', index: { a: 1 } }, 'db', ctx)).toMatchObject({ ok: 1, nIndexesWas: 2 });
  });

  it('routes transactional commands to the session transaction and aborts it after a failed statement', () => {
    const ctx = context();
    const lsid = { id: new Binary(Buffer.alloc(16, 1), 4) };
    const inTxn = { lsid, txnNumber: 1, autocommit: false };
    dispatch({ insert: 'c', documents: [{ _id: 1 }] }, 'db', ctx);
    expect(dispatch({ insert: 'c', documents: [{ _id: 2 }], ...inTxn, startTransaction: true }, 'db', ctx)).toMatchObject({ ok: 1, n: 1 });
    expect(dispatch({ count: 'c' }, 'db', ctx)).toMatchObject({ n: 1 });
    expect(dispatch({ count: 'c', ...inTxn }, 'db', ctx)).toMatchObject({ n: 2 });
    expect(dispatch({ insert: 'c', documents: [{ _id: 1 }], ...inTxn }, 'db', ctx).writeErrors).toHaveLength(1);
    expect(dispatch({ commitTransaction: 1, ...inTxn }, 'admin', ctx)).toMatchObject({
      ok: 0,
      code: 251,
      errorLabels: ['TransientTransactionError'],
    });
    expect(dispatch({ count: 'c' }, 'db', ctx)).toMatchObject({ n: 1 });
  });
});
