import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Document } from 'bson';
import { CursorRegistry } from './cursors';
import { dispatchWaiting } from './dispatcher';
import { CommandError, ErrorCodes } from './errors';
import type { Journal } from './persistence/data-dir';
import { Store } from './storage/store';
import { sweepExpired } from './storage/ttl';
import { TransactionManager } from './transactions/manager';
import { encodeMsg, encodeReply, FLAG_MORE_TO_COME, parseMessage } from './wire/codec';
import { MessageFramer } from './wire/framer';

export interface ServerOptions {
  host?: string;
  port?: number;
  setName?: string;
  /** How often idle cursors and idle transactions are swept (ms). */
  sweepIntervalMs?: number;
  /**
   * How often TTL indexes remove expired documents (ms): every 60 s, as mongod's TTL monitor runs. Each pass
   * reads every document of a collection with a TTL index (the outbox, the inbox), so at every second it cost the
   * benchmark 1.4 % of this server's CPU and grew with the data held.
   */
  ttlIntervalMs?: number;
  /** The data read back from a data directory (default: an empty store). */
  store?: Store;
  /** Where the store's changes are saved; a write is answered once its changes are on disk. */
  journal?: Journal;
}

/** Commands that change data: refused once the journal could not be written (see `Journal.failed`). */
const WRITES = new Set(
  [
    'insert',
    'update',
    'delete',
    'findAndModify',
    'create',
    'drop',
    'dropDatabase',
    'createIndexes',
    'dropIndexes',
    'deleteIndexes',
    'renameCollection',
    'collMod',
    'commitTransaction',
  ].map((n) => n.toLowerCase()),
);

/** A TCP server that answers the MongoDB wire protocol from an in-memory Store. */
export class EmbeddedMongoServer {
  readonly store: Store;
  readonly cursors = new CursorRegistry();
  readonly transactions: TransactionManager;
  private readonly journal?: Journal;
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private sweeper?: NodeJS.Timeout;
  private lastTtlSweep = Date.now();
  private connections = 0;
  private requestIds = 0;
  address = '';

  constructor(private readonly opts: ServerOptions = {}) {
    this.store = opts.store ?? new Store();
    this.transactions = new TransactionManager(this.store);
    this.journal = opts.journal;
  }

  async listen(): Promise<{ host: string; port: number }> {
    const host = this.opts.host ?? '127.0.0.1';
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;
    this.address = `${host}:${port}`;
    this.sweeper = setInterval(() => this.sweep(), this.opts.sweepIntervalMs ?? 1000);
    this.sweeper.unref();
    return { host, port };
  }

  /** Idle cursors and transactions; expired documents too when the TTL interval has passed (or `ttl` says so). */
  sweep(now = Date.now(), ttl = now - this.lastTtlSweep >= (this.opts.ttlIntervalMs ?? 60_000)): void {
    if (ttl && !this.journal?.failed) {
      this.lastTtlSweep = now;
      sweepExpired(this.store, now);
    }
    this.cursors.sweep(now);
    this.transactions.sweep(now);
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    await this.journal?.close();
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    const connectionId = ++this.connections;
    const framer = new MessageFramer();
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
    // This connection's messages not yet answered, in order. While one of them waits for a transaction's lock
    // (`waiting`), the ones behind it, and any that arrive meanwhile, wait in the queue.
    const queue: Buffer[] = [];
    let waiting = false;
    let broken = false;
    const pump = (): void => {
      while (!waiting && queue.length > 0) {
        const done = this.handle(socket, queue.shift()!, connectionId);
        if (done === false) {
          queue.length = 0;
          return;
        }
        if (done !== true) {
          waiting = true;
          done.then(
            (open) => {
              waiting = false;
              if (open) pump();
              else queue.length = 0;
            },
            () => socket.destroy(),
          );
          return;
        }
      }
      // An impossible length means the stream cannot be resynchronised: hang up, as mongod does, once the
      // messages before it are answered.
      if (broken && !waiting) socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      const { messages, error } = framer.push(chunk);
      queue.push(...messages);
      if (error) broken = true;
      pump();
    });
  }

  /**
   * Answers one message; returns false when the connection was closed because of it, and a promise
   * of that when the command waits for a transaction's lock.
   */
  private handle(socket: Socket, message: Buffer, connectionId: number): boolean | Promise<boolean> {
    let parsed;
    try {
      parsed = parseMessage(message);
    } catch {
      // Malformed frame (bad BSON, unknown opcode such as legacy OP_INSERT or OP_COMPRESSED which
      // we never advertise): there is no safe way to answer, so close like mongod does.
      socket.destroy();
      return false;
    }
    const ctx = {
      store: this.store,
      cursors: this.cursors,
      transactions: this.transactions,
      server: { address: this.address, setName: this.opts.setName ?? 'rs0', connectionId },
    };
    const requestId = ++this.requestIds;
    if (parsed.kind === 'query') {
      const [db, ...rest] = parsed.fullCollectionName.split('.');
      let reply: Document;
      if (rest.join('.') !== '$cmd') {
        reply = new CommandError(ErrorCodes.CommandNotFound, 'legacy OP_QUERY is only supported for commands').toReply();
      } else {
        const body = (parsed.query.$query ?? parsed.query) as Document; // $query: legacy read-preference wrapper
        const pending = dispatchWaiting(body, db, ctx);
        if (pending instanceof Promise) {
          return pending.then((doc) => this.send(socket, doc, (d) => encodeReply(requestId, parsed.header.requestId, d)));
        }
        reply = pending;
      }
      return this.send(socket, reply, (doc) => encodeReply(requestId, parsed.header.requestId, doc));
    }
    const db = typeof parsed.body.$db === 'string' ? parsed.body.$db : 'admin';
    const moreToCome = (parsed.flags & FLAG_MORE_TO_COME) !== 0; // the client asked for no reply
    const answer = (reply: Document): boolean =>
      moreToCome || this.send(socket, reply, (doc) => encodeMsg(requestId, parsed.header.requestId, doc));
    const journal = this.journal;
    if (!journal) {
      const reply = dispatchWaiting(parsed.body, db, ctx);
      return reply instanceof Promise ? reply.then(answer) : answer(reply);
    }
    if (journal.failed && WRITES.has((Object.keys(parsed.body)[0] ?? '').toLowerCase())) {
      return answer(new CommandError(ErrorCodes.InternalError, journal.failed.message).toReply());
    }
    const before = journal.changes;
    const reply = dispatchWaiting(parsed.body, db, ctx);
    // a command that changed data is answered once its changes are on disk, never before
    const durable = (r: Document): Document | Promise<Document> =>
      journal.changes === before
        ? r
        : journal.whenDurable().then(
            () => r,
            (err: Error) => new CommandError(ErrorCodes.InternalError, err.message).toReply(),
          );
    const saved = reply instanceof Promise ? reply.then(durable) : durable(reply);
    return saved instanceof Promise ? saved.then(answer) : answer(saved);
  }

  /** Writes an encoded reply; a reply that cannot be encoded (e.g. too large) becomes an error reply. */
  private send(socket: Socket, reply: Document, encode: (doc: Document) => Buffer): boolean {
    let bytes: Buffer;
    try {
      bytes = encode(reply);
    } catch (err) {
      const message = `reply could not be encoded: ${err instanceof Error ? err.message : String(err)}`;
      bytes = encode(new CommandError(ErrorCodes.BadValue, message).toReply());
    }
    socket.write(bytes);
    return true;
  }
}
