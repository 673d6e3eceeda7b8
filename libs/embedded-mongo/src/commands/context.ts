import type { Document } from 'bson';
import type { CursorRegistry } from '../cursors';
import type { DataAccess, Store } from '../storage/store';
import type { TransactionManager } from '../transactions/manager';

export interface ServerInfo {
  /** host:port as clients reach it; advertised as the replica set's only member. */
  address: string;
  setName: string;
  connectionId: number;
}

export interface CommandContext {
  /** The command's `$db`. */
  db: string;
  store: Store;
  /** Where reads and writes go: the store itself, or the session's open transaction. */
  data: DataAccess;
  cursors: CursorRegistry;
  transactions: TransactionManager;
  server: ServerInfo;
}

export type CommandHandler = (cmd: Document, ctx: CommandContext) => Document;

/** Reads a collection-name argument (the value of the command's first key). */
export function collectionName(cmd: Document, field: string): string {
  const name = cmd[field];
  if (typeof name !== 'string' || !name) throw new TypeError(`collection name must be a non-empty string, got ${String(name)}`);
  return name;
}
