import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from './logger';

export interface Listening {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP server; `close()` stops accepting, lets in-flight requests finish, drops idle sockets. */
export function listen(app: Express, port: number, host = '127.0.0.1'): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
      server.keepAliveTimeout = 5_000;
      const actual = (server.address() as AddressInfo).port;
      resolve({
        server,
        port: actual,
        url: `http://${host}:${actual}`,
        close: () =>
          new Promise<void>((res) => {
            server.close(() => res());
            server.closeIdleConnections();
          }),
      });
    });
  });
}

/**
 * SIGTERM/SIGINT -> run `stop` once (stop consuming, finish in-flight work, close connections), then exit.
 * A stop that hangs longer than `timeoutMs` is cut short with exit code 1.
 */
export function exitOnSignals(logger: Logger, stop: () => Promise<void>, timeoutMs = 20_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'graceful shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
