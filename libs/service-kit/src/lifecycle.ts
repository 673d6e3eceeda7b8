import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { problem } from './problem';
import type { Express } from 'express';
import type { Logger } from './logger';

export interface Listening {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** Limits of the HTTP server against slow or greedy clients (the gateway sets them from its env). */
export interface ServerLimits {
  /** Whole request head must arrive within this (slowloris). Node default 60 s. */
  headersTimeoutMs?: number;
  /** Whole request (head and body) must arrive within this. Node default 300 s. */
  requestTimeoutMs?: number;
  /** Idle keep-alive sockets are closed after this. */
  keepAliveTimeoutMs?: number;
  /** Connections beyond this are refused (closed at once). Default unlimited. */
  maxConnections?: number;
}

/**
 * A request Node's HTTP parser refuses before express sees it (raw non-ASCII bytes or a space in the path or query,
 * a broken header) is answered 400 MALFORMED_REQUEST as a problem document saying what to fix, instead of Node's
 * bare "400 Bad Request" without a body. Timeouts (408) and oversized heads (431) keep Node's answers.
 */
function answerMalformedRequest(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (!socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
    socket.destroy();
    return;
  }
  if (err.code === 'ECONNRESET') return void socket.destroy();
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return void socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
  const raw = err.rawPacket ?? Buffer.alloc(0);
  const lineEnd = raw.indexOf(0x0a);
  const requestLine = raw.subarray(0, lineEnd < 0 ? raw.length : lineEnd);
  const parts = requestLine.toString('latin1').replace(/\r$/, '').split(' ');
  const detail = requestLine.some((b) => b > 0x7e)
    ? 'the path or query string has raw (not percent-encoded) non-ASCII characters: percent-encode them as UTF-8 (ü is %C3%BC; encodeURIComponent does it)'
    : parts.length > 3
      ? 'the path or query string has a space: percent-encode it as %20'
      : `the request is not valid HTTP/1.1 (${err.code ?? 'parse error'}): percent-encode the path and query, and send well-formed headers`;
  const body = JSON.stringify(problem(400, 'MALFORMED_REQUEST', detail));
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Starts the HTTP server; `close()` stops accepting, lets in-flight requests finish, drops idle sockets. */
export function listen(app: Express, port: number, host = '127.0.0.1', limits: ServerLimits = {}): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const headersTimeout = limits.headersTimeoutMs ?? 60_000;
    const server = createServer(
      {
        headersTimeout,
        requestTimeout: Math.max(limits.requestTimeoutMs ?? 300_000, headersTimeout),
        // how often expired head/request timers are enforced (Node's default 30 s would let a slow client
        // hold its socket up to 30 s past the limit)
        connectionsCheckingInterval: Math.min(1_000, headersTimeout),
      },
      app,
    );
    server.on('clientError', answerMalformedRequest);
    server.keepAliveTimeout = limits.keepAliveTimeoutMs ?? 5_000;
    if (limits.maxConnections) server.maxConnections = limits.maxConnections;
    server.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
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
 * A stop that hangs longer than `timeoutMs` is cut short with exit code 1. A signal that comes while stopping (Ctrl+C
 * pressed twice, the terminal's SIGINT and a supervisor's SIGTERM, the tsx CLI relaying one the process already got)
 * changes nothing: the handlers stay installed, since without one Node's default for the signal ends the process at
 * once, in the middle of its stop.
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
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
