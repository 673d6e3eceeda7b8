import { Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import httpProxy from 'http-proxy';
import { context, propagation } from '@opentelemetry/api';
import { AppError, notFound, problem, type Logger } from '@inv/service-kit';
import { suggestedPath } from '../routes-table';
import { LONG_POLL, withoutWait } from './company-concurrency';
import { UpstreamGate, type GateOptions } from './upstream-gate';

/**
 * Forwards an authenticated request to the service owning its path prefix, streaming bodies both ways
 * (http-proxy). The W3C trace context of the gateway's span goes along, so the service continues the same
 * trace; the identity token was set by authentication.
 *
 * Nothing here may throw outside a request: every outgoing header is set on the incoming request before it is
 * forwarded (http-proxy copies them), never in http-proxy's `proxyReq` event, which fires when a socket is
 * assigned and, for a request that had waited for one, after its headers were flushed (ERR_HTTP_HEADERS_SENT,
 * uncaught: the gateway exited). Each upstream admits a bounded number of requests (UpstreamGate); the rest
 * wait in a bounded queue or get 503 + Retry-After.
 */
/** The base URL of the service owning a path (below /api/v1), or undefined. */
export function targetFinder(table: { prefix: string; target: string }[]) {
  return (path: string) => table.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`))?.target;
}

/** A service's answer as the proxy passed it on to the client. */
export interface UpstreamAnswer {
  status: number;
  contentType?: string;
  body: Buffer;
}

interface Held {
  /** The request body, already read by a middleware before the proxy (the proxy sends these bytes). */
  body: Buffer;
  maxBytes: number;
  onAnswer: (answer: UpstreamAnswer) => void;
}

const HELD = 'heldForwarding';

/**
 * For a middleware that has read the request body and needs the service's answer (idempotency): the proxy
 * forwards `body` instead of the (consumed) request stream and, while streaming the answer to the client
 * as usual, hands a copy of it to `onAnswer` when complete (answers above `maxBytes` are not handed over).
 */
export function holdAnswer(res: Response, body: Buffer, maxBytes: number, onAnswer: (answer: UpstreamAnswer) => void): void {
  res.locals[HELD] = { body, maxBytes, onAnswer } satisfies Held;
}

/**
 * A service's base URL in the shape http-proxy reads from a target (that of Node's legacy `url.parse`, which it calls
 * on a string target), built with the WHATWG URL parser: `url.parse` warns (DEP0169) when called outside node_modules.
 */
export function proxyTarget(target: string) {
  const u = new URL(target);
  return {
    protocol: u.protocol,
    host: u.host,
    hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'), // an IPv6 address without its brackets, as url.parse gives it
    port: u.port || null,
    path: `${u.pathname}${u.search}`,
    pathname: u.pathname,
  };
}

const heldOf = (req: IncomingMessage) => (req as Request).res?.locals[HELD] as Held | undefined;

/** Methods whose request may be sent a second time: repeating one has the effect of sending it once (RFC 9110 9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Largest streamed body kept aside so that its request can be sent again after a reset (a JSON body's limit). */
const REPLAY_MAX_BYTES = 1024 * 1024;

/**
 * A kept-alive socket the service closed (its keep-alive timeout) just as the agent handed it to a request: the
 * request fails with a reset before the service saw it. Node marks such a request `reusedSocket` and advises
 * sending it again; only idempotent methods are, once, and only before any answer arrived.
 */
function isStaleSocketReset(err: Error, proxyReq: ClientRequest | undefined) {
  const code = (err as { code?: string }).code;
  return proxyReq?.reusedSocket === true && (code === 'ECONNRESET' || code === 'EPIPE');
}

export interface ProxyLimits extends GateOptions {
  /** Long polls open at once per upstream, on their own sockets so they never take the other requests' slots. */
  maxLongPolls: number;
}

function busy(res: Response, reason: string) {
  const body = problem(503, 'SERVICE_BUSY', `the service is busy (${reason}); retry in a second`);
  res.setHeader('Retry-After', '1');
  res.status(503).type('application/problem+json').json(body);
}

export function proxyToServices(
  table: { prefix: string; target: string }[],
  timeoutOf: (path: string) => number,
  logger: Logger,
  limits: ProxyLimits,
) {
  const targetOf = targetFinder(table);
  // each service's URL parsed once: given a string, http-proxy parses it again for every request it forwards
  const parsed = new Map(table.map((r) => [r.target, proxyTarget(r.target)]));
  /**
   * Keep-alive connections to the services. Without an agent http-proxy sends `connection: close` upstream, the
   * service echoes it, and every client connection was closed after one request. Idle sockets are dropped after
   * 4 s, before the services' 5 s keep-alive timeout closes them under a request. The gates keep the number of
   * requests below `maxSockets`, so the agent never queues (twice the gate: a socket is freed a moment after the
   * gate's slot).
   */
  const agentOf = (max: number) => new Agent({ keepAlive: true, maxSockets: max * 2, maxFreeSockets: 64, timeout: 4_000 });
  const pools = new Map(
    [...parsed.keys()].map((t) => [
      t,
      {
        normal: { gate: new UpstreamGate(limits), agent: agentOf(limits.maxInFlight) },
        long: {
          gate: new UpstreamGate({ ...limits, maxInFlight: limits.maxLongPolls, maxQueue: 0 }),
          agent: agentOf(limits.maxLongPolls),
        },
      },
    ]),
  );

  const proxy = httpProxy.createProxyServer({ changeOrigin: true, xfwd: true });
  // errors without a per-request callback (none expected) are logged, never thrown
  proxy.on('error', (err) => logger.warn({ err }, 'proxy error'));
  proxy.on('econnreset', () => undefined);
  // the request each forwarding sent, for the stale-socket check of its error (nothing is changed on it here)
  const sent = new WeakMap<IncomingMessage, ClientRequest>();
  proxy.on('proxyReq', (proxyReq, req) => void sent.set(req, proxyReq));
  proxy.on('proxyRes', (proxyRes, req, res) => {
    // the client went away before the answer was through: stop reading it
    res.on('close', () => {
      if (!res.writableEnded) proxyRes.destroy();
    });
    const held = heldOf(req);
    if (!held) return;
    const chunks: Buffer[] = [];
    let size = 0;
    proxyRes.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= held.maxBytes) chunks.push(chunk);
    });
    proxyRes.on('end', () => {
      if (size <= held.maxBytes && proxyRes.complete)
        held.onAnswer({ status: proxyRes.statusCode ?? 502, contentType: proxyRes.headers['content-type'], body: Buffer.concat(chunks) });
    });
  });

  const onError = (err: Error, _req: IncomingMessage, res: ServerResponse | unknown) => {
    const out = res as ServerResponse;
    if (typeof out.headersSent !== 'boolean' || out.headersSent || out.destroyed) return;
    logger.warn({ err }, 'upstream service unreachable');
    const timedOut = (err as { code?: string }).code === 'ECONNRESET' || /timeout|socket hang up/i.test(err.message);
    const body = timedOut
      ? problem(504, 'UPSTREAM_TIMEOUT', 'the service did not answer in time; retry later')
      : problem(503, 'SERVICE_UNAVAILABLE', 'the service is temporarily unavailable; retry later');
    out.writeHead(body.status, { 'content-type': 'application/problem+json' });
    out.end(JSON.stringify(body));
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const otelContext = context.active();
      const target = targetOf(req.path);
      if (!target) {
        const meant = suggestedPath(table, req.path);
        if (!meant) throw notFound(`resource ${req.path}`);
        throw new AppError('not_found', `resource ${req.path} not found: the path is /api/v1${meant}`, {
          code: 'NOT_FOUND',
          extra: { suggested_path: `/api/v1${meant}` },
        });
      }
      const pool = pools.get(target)!;
      const gone = new AbortController();
      res.once('close', () => gone.abort());

      // a long poll admitted by the company's cap (company-concurrency.ts) is held on the long-poll sockets
      let lane = res.locals[LONG_POLL] ? pool.long : pool.normal;
      let admission = await lane.gate.acquire(gone.signal);
      if (!admission.ok && lane === pool.long) {
        // every long-poll socket of this service is open: answered at once on the ordinary lane
        req.url = withoutWait(req.url);
        lane = pool.normal;
        admission = await lane.gate.acquire(gone.signal);
      }
      if (!admission.ok) {
        if (admission.reason !== 'gone') busy(res, admission.reason === 'queue_full' ? 'too many requests waiting' : 'no slot in time');
        return;
      }
      const release = admission.release;
      res.once('close', release);
      if (res.destroyed || gone.signal.aborted) return release();

      const carrier: Record<string, string> = {};
      propagation.inject(otelContext, carrier);
      Object.assign(req.headers, carrier, { 'x-request-id': String(res.locals.requestId ?? '') });
      const held = heldOf(req);
      if (held) {
        // the body was read (and inflated) before: send exactly these bytes
        delete req.headers['content-encoding'];
        delete req.headers['transfer-encoding'];
        req.headers['content-length'] = String(held.body.length);
      }
      // what a second attempt would send: the held body, nothing, or a small streamed body kept aside as it goes
      const declared = Number(req.headers['content-length'] ?? 0);
      const bodiless = !held && !(declared > 0) && req.headers['transfer-encoding'] === undefined;
      const kept: Buffer[] | undefined =
        !held && !bodiless && IDEMPOTENT.has(req.method) && declared > 0 && declared <= REPLAY_MAX_BYTES ? [] : undefined;
      const replay = (): Readable | undefined => {
        if (held) return Readable.from([held.body]);
        if (bodiless) return Readable.from([]);
        const body = kept && req.complete ? Buffer.concat(kept) : undefined;
        return body && body.length === declared ? Readable.from([body]) : undefined;
      };
      const forward = (attempt: number, buffer: Readable | undefined) =>
        proxy.web(
          req,
          res,
          { target: parsed.get(target)!, agent: lane.agent, proxyTimeout: timeoutOf(req.path), buffer },
          (err: Error, inReq: IncomingMessage, out: ServerResponse | unknown) => {
            const again = attempt === 0 && IDEMPOTENT.has(req.method) && !res.headersSent && !res.destroyed ? replay() : undefined;
            if (again && isStaleSocketReset(err, sent.get(req))) {
              logger.info({ err, method: req.method }, 'kept-alive upstream socket was reset; request sent again');
              return forward(1, again);
            }
            onError(err, inReq, out);
          },
        );
      forward(0, held ? Readable.from([held.body]) : undefined);
      // after the proxy's pipe (same tick): both see every chunk
      if (kept) req.on('data', (chunk: Buffer) => kept.push(chunk));
    } catch (err) {
      next(err);
    }
  };
}
