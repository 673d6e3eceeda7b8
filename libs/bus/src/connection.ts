import { connect, type Channel, type ChannelModel, type ConfirmChannel, type RecoveringChannelModel } from 'amqplib';
import { amqpSocketOf, coalesceWrites } from './coalesce-writes';
import { reconnectDelay } from './retry-policy';
import type { BusLogger } from './types';

/** One live AMQP connection with its publishing channel. Replaced wholesale on every reconnect. */
export interface Session {
  readonly id: number;
  readonly model: ChannelModel;
  /** Confirm channel for events, commands, retries and parking. */
  readonly pub: ConfirmChannel;
  /** Every open channel of this session, closed one by one on stop (see stop()). */
  readonly channels: Set<Channel>;
  closed: boolean;
}

export interface ConnectionManagerOptions {
  url: string;
  connectionName: string;
  reconnectDelaysMs: readonly number[];
  logger: BusLogger;
  /** Declare topology and (re)start consumers on a fresh session; throwing drops the connection and retries. */
  onSession(session: Session): Promise<void>;
  /** The session is gone (connection closed); consumers on it are dead. */
  onSessionLost(session: Session): void;
}

interface Waiter {
  resolve(session: Session): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Owns the connection. amqplib 2.x reconnects the *connection* itself (`recovery` option, with our delay
 * schedule via calculateDelay); channels, topology and consumers are rebuilt here in its `setup` hook.
 * A channel that closes unexpectedly (e.g. a channel-level error) takes the whole connection down with it
 * so that everything is rebuilt by the same single code path.
 */
export class ConnectionManager {
  private recovering?: RecoveringChannelModel;
  private session?: Session;
  private sessionCount = 0;
  private waiters: Waiter[] = [];
  private stopping = false;

  constructor(private readonly opts: ConnectionManagerOptions) {}

  async start(): Promise<void> {
    const { logger, reconnectDelaysMs } = this.opts;
    this.stopping = false;
    const recovering = await connect(this.opts.url, {
      // Without noDelay, Nagle's algorithm holds small frames back: an RPC round trip takes ~25 ms instead of <1 ms.
      noDelay: true,
      clientProperties: { connection_name: this.opts.connectionName },
      recovery: {
        calculateDelay: (attempt) => reconnectDelay(attempt, reconnectDelaysMs),
        // Fail start() after one pass through the schedule (the orchestrator restarts us); once connected, retry forever.
        initialMaxRetries: reconnectDelaysMs.length,
        setup: (model: ChannelModel) => this.setup(model),
        waitForConnect: false,
      },
    });
    this.recovering = recovering;
    recovering.on('error', (err: Error) => logger.warn({ err }, 'bus: connection error'));
    recovering.on('connect-failed', (err: Error) => logger.warn({ err }, 'bus: connect failed'));
    recovering.on('reconnect-scheduled', (info: { attempt: number; delay: number; error: Error }) =>
      logger.warn({ attempt: info.attempt, delayMs: info.delay, err: info.error }, 'bus: reconnect scheduled'),
    );
    recovering.on('reconnect-failed', (err: Error) => logger.error({ err }, 'bus: gave up reconnecting'));
    recovering.on('blocked', (reason: string) => logger.warn({ reason }, 'bus: connection blocked by the broker'));
    try {
      await recovering.waitForConnect();
    } catch (err) {
      this.recovering = undefined;
      await recovering.close().catch(() => undefined);
      throw err;
    }
  }

  private async setup(model: ChannelModel): Promise<void> {
    // one write system call per tick for all the frames written in it (publishes, acks, RPC requests and replies)
    const socket = amqpSocketOf(model);
    if (socket) coalesceWrites(socket);
    const pub = await model.createConfirmChannel();
    const session: Session = { id: ++this.sessionCount, model, pub, channels: new Set([pub]), closed: false };
    model.on('error', (err: Error) => this.opts.logger.warn({ err }, 'bus: connection error'));
    model.once('close', (err?: Error) => this.lose(session, err));
    this.guard(session, session.pub, 'publish');
    try {
      await this.opts.onSession(session);
    } catch (err) {
      this.opts.logger.error({ err }, 'bus: setting up the session failed; reconnecting');
      this.lose(session, err as Error);
      throw err;
    }
    this.session = session;
    this.opts.logger.info({ session: session.id, connection: this.opts.connectionName }, 'bus: connected');
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(session);
    }
  }

  private lose(session: Session, err?: Error): void {
    if (session.closed) return;
    session.closed = true;
    if (this.session === session) this.session = undefined;
    if (!this.stopping) this.opts.logger.warn({ err, session: session.id }, 'bus: connection lost');
    this.opts.onSessionLost(session);
  }

  /**
   * Error listener (an unhandled 'error' event would crash the process) and, for channels the session
   * depends on, turn an unexpected close into a reconnect.
   */
  guard(session: Session, channel: Channel, what: string, critical = true): void {
    session.channels.add(channel);
    channel.once('close', () => session.channels.delete(channel));
    channel.on('error', (err: Error) => this.opts.logger.warn({ err, channel: what }, 'bus: channel error'));
    if (!critical) return;
    channel.on('close', () => {
      if (session.closed || this.stopping) return;
      this.opts.logger.warn({ channel: what, session: session.id }, 'bus: channel closed unexpectedly; reconnecting');
      session.model.close().catch(() => undefined);
    });
  }

  async openChannel(session: Session, what: string, critical = true): Promise<Channel> {
    const channel = await session.model.createChannel();
    this.guard(session, channel, what, critical);
    return channel;
  }

  current(): Session | undefined {
    return this.session && !this.session.closed ? this.session : undefined;
  }

  isReady(): boolean {
    return this.current() !== undefined;
  }

  /** The live session, or the next one if it arrives within timeoutMs. */
  waitForSession(timeoutMs: number): Promise<Session> {
    const live = this.current();
    if (live) return Promise.resolve(live);
    if (this.stopping || !this.recovering) return Promise.reject(new Error('bus is not started'));
    return new Promise<Session>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(new Error(`bus: not connected within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error('bus stopped'));
    }
    const recovering = this.recovering;
    this.recovering = undefined;
    const session = this.session;
    if (session && !session.closed) {
      // amqplib muxes each channel's frames separately, so an ack written just before connection.close
      // can reach the socket after it and be lost. Closing each channel first (close-ok comes after the
      // channel's earlier frames) makes the acks of the handlers we waited for stick.
      await Promise.all([...session.channels].map((ch) => ch.close().catch(() => undefined)));
    }
    if (recovering) await recovering.close();
    this.session = undefined;
  }
}
