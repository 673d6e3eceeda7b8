import { Long, type Document } from 'bson';
import { CommandError, ErrorCodes } from '../errors';
import type { DataAccess, Store } from '../storage/store';
import { isBsonValue, isPlainObject } from '../util/values';
import { Transaction } from './transaction';

/** transactionLifetimeLimitSeconds of the real server: idle transactions are aborted after it. */
const TRANSACTION_LIFETIME_MS = 60_000;

function sessionKey(lsid: unknown): string | undefined {
  if (!isPlainObject(lsid)) return undefined;
  const id = lsid.id;
  return isBsonValue(id) ? id.toString('hex') : String(id);
}

function txnNumberOf(v: unknown): number {
  if (v instanceof Long) return v.toNumber();
  return Number(v);
}

function noSuchTransaction(txnNumber: number): CommandError {
  return new CommandError(ErrorCodes.NoSuchTransaction, `Transaction with { txnNumber: ${txnNumber} } has been aborted.`, {}, [
    'TransientTransactionError',
  ]);
}

/** Tracks each logical session's current transaction, keyed by lsid, driven by txnNumber. */
export class TransactionManager {
  private readonly sessions = new Map<string, Transaction>();

  constructor(private readonly store: Store) {}

  /** Where a command reads and writes: its session's transaction when `autocommit: false`. */
  dataFor(cmd: Document): DataAccess {
    if (cmd.autocommit !== false) return this.store;
    const key = sessionKey(cmd.lsid);
    if (!key) throw new CommandError(ErrorCodes.InvalidOptions, 'Transactions require a logical session id (lsid)');
    const txnNumber = txnNumberOf(cmd.txnNumber);
    let txn = this.sessions.get(key);
    if (cmd.startTransaction === true) {
      if (txn && txn.txnNumber >= txnNumber && txn.state === 'active') {
        throw new CommandError(ErrorCodes.BadValue, `Transaction ${txnNumber} has already started or is older than ${txn.txnNumber}`);
      }
      txn?.abort();
      txn = new Transaction(this.store, `${key}:${txnNumber}`, txnNumber);
      this.sessions.set(key, txn);
    }
    if (!txn || txn.txnNumber !== txnNumber || txn.state !== 'active') throw noSuchTransaction(txnNumber);
    txn.lastUsed = Date.now();
    return txn;
  }

  commit(cmd: Document): void {
    const txn = this.find(cmd);
    if (txn.state === 'committed') return; // a retried commit is answered ok again
    if (txn.state === 'aborted') throw noSuchTransaction(txn.txnNumber);
    txn.commit();
  }

  abort(cmd: Document): void {
    const txn = this.find(cmd);
    if (txn.state === 'committed') {
      throw new CommandError(ErrorCodes.TransactionCommitted, 'Transaction has been committed and cannot be aborted');
    }
    if (txn.state === 'aborted') throw noSuchTransaction(txn.txnNumber);
    txn.abort();
  }

  /** Aborts the open transaction of a session whose command failed (as the server does). */
  abortOnError(cmd: Document): void {
    if (cmd.autocommit !== false) return;
    const key = sessionKey(cmd.lsid);
    const txn = key ? this.sessions.get(key) : undefined;
    if (txn && txn.txnNumber === txnNumberOf(cmd.txnNumber)) txn.abort();
  }

  endSessions(lsids: unknown[]): void {
    for (const lsid of lsids) {
      const key = sessionKey(lsid);
      if (!key) continue;
      this.sessions.get(key)?.abort();
      this.sessions.delete(key);
    }
  }

  sweep(now = Date.now()): void {
    for (const [key, txn] of this.sessions) {
      if (txn.state === 'active' && now - txn.lastUsed > TRANSACTION_LIFETIME_MS) txn.abort();
      if (txn.state !== 'active' && now - txn.lastUsed > TRANSACTION_LIFETIME_MS) this.sessions.delete(key);
    }
  }

  private find(cmd: Document): Transaction {
    const key = sessionKey(cmd.lsid);
    const txnNumber = txnNumberOf(cmd.txnNumber);
    const txn = key ? this.sessions.get(key) : undefined;
    if (!txn || txn.txnNumber !== txnNumber) throw noSuchTransaction(txnNumber);
    return txn;
  }
}
