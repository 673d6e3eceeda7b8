import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin, type Plugin } from 'http-proxy-middleware';
import { context, propagation } from '@opentelemetry/api';
import { notFound, problem, type Logger } from '@inv/service-kit';

/**
 * Forwards an authenticated request to the service owning its path prefix, streaming bodies both ways
 * (http-proxy-middleware). The W3C trace context of the gateway's span goes along, so the service
 * continues the same trace; the company id header was set by authentication.
 */
/** The base URL of the service owning a path (below /api/v1), or undefined. */
export function targetFinder(table: { prefix: string; target: string }[]) {
  return (path: string) => table.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`))?.target;
}

/**
 * Keep-alive connections to the services. Without an agent http-proxy sends `connection: close` upstream,
 * the service echoes it, and every client connection was closed after one request. Idle sockets are
 * dropped after 4 s, before the services' 5 s keep-alive timeout closes them under a request.
 */
const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 4_000 });

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

export function proxyToServices(table: { prefix: string; target: string }[], timeoutMs: number, logger: Logger) {
  const targetOf = targetFinder(table);
  // each service's URL parsed once: given a string, http-proxy parses it again for every request it forwards
  const unreachable = 'http://127.0.0.1:1';
  const parsed = new Map([...table.map((r) => r.target), unreachable].map((t) => [t, proxyTarget(t)]));
  const proxy = createProxyMiddleware<Request, Response>({
    agent: upstreamAgent,
    router: (req) => parsed.get(targetOf(req.path) ?? unreachable)!,
    // http-proxy-middleware's default plugins but its logger, which builds a `[HPM] GET … -> …` line (a URL parsed and
    // printed) for every answer even when no logger is given; the gateway writes one summary line per request itself.
    // Kept: the socket error handlers and stream fixes (debugProxyErrorsPlugin) and the `on` handlers below
    // (proxyEventsPlugin); with `on.error` given, its error-response plugin is not used anyway.
    ejectPlugins: true,
    // (typed for plain Node requests, which express's extend)
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin] as unknown as Plugin<Request, Response>[],
    changeOrigin: true,
    xfwd: true,
    proxyTimeout: timeoutMs,
    on: {
      proxyReq: (proxyReq, req) => {
        const carrier: Record<string, string> = {};
        propagation.inject((req as Request).res?.locals.otelContext ?? context.active(), carrier);
        for (const [k, v] of Object.entries(carrier)) proxyReq.setHeader(k, v);
        proxyReq.setHeader('x-request-id', String((req as Request).res?.locals.requestId ?? ''));
        const held = heldOf(req);
        if (held) {
          // the body was read (and inflated) before: send exactly these bytes; the ended request stream then ends the upstream request
          proxyReq.removeHeader('content-encoding');
          proxyReq.removeHeader('transfer-encoding');
          proxyReq.setHeader('content-length', held.body.length);
          proxyReq.write(held.body);
        }
      },
      proxyRes: (proxyRes, req) => {
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
            held.onAnswer({
              status: proxyRes.statusCode ?? 502,
              contentType: proxyRes.headers['content-type'],
              body: Buffer.concat(chunks),
            });
        });
      },
      error: (err, _req: IncomingMessage, res: ServerResponse | unknown) => {
        logger.warn({ err }, 'upstream service unreachable');
        const out = res as ServerResponse;
        if (typeof out.headersSent !== 'boolean' || out.headersSent) return;
        const timedOut = (err as { code?: string }).code === 'ECONNRESET' || /timeout/i.test(err.message);
        const body = timedOut
          ? problem(504, 'UPSTREAM_TIMEOUT', 'the service did not answer in time; retry later')
          : problem(503, 'SERVICE_UNAVAILABLE', 'the service is temporarily unavailable; retry later');
        out.writeHead(body.status, { 'content-type': 'application/problem+json' });
        out.end(JSON.stringify(body));
      },
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!targetOf(req.path)) throw notFound(`resource ${req.path}`);
    res.locals.otelContext = context.active();
    return proxy(req, res, next);
  };
}
