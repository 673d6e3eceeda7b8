import { Binary } from 'bson';
import { Store } from '../storage/store';
import { TransactionManager } from './manager';

const lsid = (n: number) => ({ id: new Binary(Buffer.alloc(16, n), 4) });
const txnCmd = (session: number, txnNumber: number, start = false) => ({
  lsid: lsid(session),
  txnNumber,
  autocommit: false,
  ...(start ? { startTransaction: true } : {}),
});

function setup() {
  const store = new Store();
  const coll = store.create('db', 'acc');
  coll.insert({ _id: 'a', v: 1 });
  return { store, mgr: new TransactionManager(store) };
}

describe('TransactionManager', () => {
  it('keeps transactional writes private until commit', () => {
    const { store, mgr } = setup();
    const data = mgr.dataFor(txnCmd(1, 1, true));
    const c = data.collectionForWrite('db', 'acc');
    data.beforeWrite(c, 'sa');
    c.replace('sa', { _id: 'a', v: 2 });
    const fresh = data.collectionForWrite('db', 'new');
    data.beforeWrite(fresh, 'sx');
    fresh.insert({ _id: 'x' });
    expect(store.collection('db', 'acc')?.docs.get('sa')?.doc.v).toBe(1);
    expect(store.collection('db', 'new')).toBeUndefined();
    mgr.commit(txnCmd(1, 1));
    expect(store.collection('db', 'acc')?.docs.get('sa')?.doc.v).toBe(2);
    expect(store.collection('db', 'new')?.docs.size).toBe(1);
    expect(() => mgr.commit(txnCmd(1, 1))).not.toThrow(); // retried commit
    expect(() => mgr.abort(txnCmd(1, 1))).toThrow(expect.objectContaining({ code: 256 }));
  });

  it('discards writes on abort and then answers NoSuchTransaction with the transient label', () => {
    const { store, mgr } = setup();
    const data = mgr.dataFor(txnCmd(1, 1, true));
    const c = data.collectionForWrite('db', 'acc');
    data.beforeWrite(c, 'sa');
    c.remove('sa');
    mgr.abort(txnCmd(1, 1));
    expect(store.collection('db', 'acc')?.docs.size).toBe(1);
    expect(() => mgr.dataFor(txnCmd(1, 1))).toThrow(expect.objectContaining({ code: 251, errorLabels: ['TransientTransactionError'] }));
    expect(() => mgr.dataFor(txnCmd(2, 1))).toThrow(expect.objectContaining({ code: 251 }));
  });

  it('answers WriteConflict to the second transaction writing the same document and aborts it', () => {
    const { mgr } = setup();
    const t1 = mgr.dataFor(txnCmd(1, 1, true));
    const t2 = mgr.dataFor(txnCmd(2, 1, true));
    t1.beforeWrite(t1.collectionForWrite('db', 'acc'), 'sa');
    expect(() => t2.beforeWrite(t2.collectionForWrite('db', 'acc'), 'sa')).toThrow(
      expect.objectContaining({ code: 112, errorLabels: ['TransientTransactionError'] }),
    );
    expect(() => mgr.commit(txnCmd(2, 1))).toThrow(expect.objectContaining({ code: 251 }));
    mgr.commit(txnCmd(1, 1));
  });

  it('fails the commit with WriteConflict when a document changed outside after the transaction wrote it', () => {
    const { store, mgr } = setup();
    const t1 = mgr.dataFor(txnCmd(1, 1, true));
    const c = t1.collectionForWrite('db', 'acc');
    t1.beforeWrite(c, 'sa');
    c.replace('sa', { _id: 'a', v: 10 });
    store.collection('db', 'acc')!.replace('sa', { _id: 'a', v: 5 });
    expect(() => mgr.commit(txnCmd(1, 1))).toThrow(expect.objectContaining({ code: 112 }));
    expect(store.collection('db', 'acc')?.docs.get('sa')?.doc.v).toBe(5);
  });

  it('aborts idle transactions and those of ended sessions', () => {
    const { store, mgr } = setup();
    const t1 = mgr.dataFor(txnCmd(1, 1, true));
    t1.beforeWrite(t1.collectionForWrite('db', 'acc'), 'sa');
    mgr.sweep(Date.now() + 61_000);
    expect(store.locks.size).toBe(0);
    const t2 = mgr.dataFor(txnCmd(2, 1, true));
    t2.beforeWrite(t2.collectionForWrite('db', 'acc'), 'sa');
    mgr.endSessions([lsid(2)]);
    expect(store.locks.size).toBe(0);
    expect(mgr.dataFor({ lsid: lsid(3) })).toBe(store); // no autocommit:false -> not transactional
  });
});
