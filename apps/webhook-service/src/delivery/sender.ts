import http from 'node:http';
import https from 'node:https';
import { guardedLookup, literalAllowed, type Resolve } from './address-guard';

export interface SendResult {
  httpStatus?: number;
  durationMs: number;
  /** The first 1 KB of the answer body. */
  excerpt?: string;
  error?: string;
}

/** Most of an answer body kept for the delivery log. */
export const EXCERPT_BYTES = 1024;

/**
 * POSTs one delivery. node:http rather than fetch, because it takes the socket's `lookup` (the connect-time
 * address check) and never follows a redirect (a 3xx is a failed attempt: following it could reach an address the
 * endpoint's checks never saw). Keep-alive agents reuse connections to a receiver; a reused socket was checked
 * when it connected.
 */
export function createSender(opts: { allowLoopback: boolean; timeoutMs: number; resolve: Resolve; maxSockets?: number }) {
  const lookup = guardedLookup(opts.resolve, opts.allowLoopback);
  // sockets per origin: as many as deliveries may be in flight (the worker's limits bound them), so the deliveries of
  // one company never wait in the agent's queue behind another's to the same host (a queued request's timeout runs)
  const maxSockets = opts.maxSockets ?? 64;
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };
  return {
    send(target: string, headers: Record<string, string>, body: string): Promise<SendResult> {
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      const url = new URL(target);
      if (literalAllowed(url, opts.allowLoopback) === false) return Promise.resolve({ durationMs: 0, error: 'address_not_allowed' });
      const mod = url.protocol === 'https:' ? https : http;
      const agent = agents[url.protocol as 'http:' | 'https:'];
      if (!agent) return Promise.resolve({ durationMs: 0, error: 'unsupported_scheme' });
      return new Promise<SendResult>((resolve) => {
        let done = false;
        const finish = (r: SendResult) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(r);
        };
        const req = mod.request(
          url,
          {
            method: 'POST',
            agent,
            lookup: lookup as unknown as http.RequestOptions['lookup'],
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'user-agent': 'e-rechnung-webhooks/1',
              ...headers,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              if (size < EXCERPT_BYTES) chunks.push(chunk.subarray(0, EXCERPT_BYTES - size));
              size += chunk.length;
            });
            res.on('end', () => {
              const status = res.statusCode ?? 0;
              finish({
                httpStatus: status,
                durationMs: took(),
                excerpt: chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined,
                ...(status >= 300 && status < 400 ? { error: 'redirect_not_followed' } : {}),
              });
            });
            res.on('error', () => finish({ httpStatus: res.statusCode, durationMs: took(), error: 'response_aborted' }));
          },
        );
        const timer = setTimeout(() => {
          req.destroy();
          finish({ durationMs: took(), error: 'timeout' });
        }, opts.timeoutMs);
        req.on('error', (err: NodeJS.ErrnoException) => finish({ durationMs: took(), error: errorName(err) }));
        req.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
export type Sender = ReturnType<typeof createSender>;

/** A short, secret-free name of a connection error for the delivery log. */
function errorName(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'EADDRNOTALLOWED':
      return 'address_not_allowed';
    case 'ECONNREFUSED':
      return 'connection_refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'dns_failure';
    case 'ECONNRESET':
      return 'connection_reset';
    default:
      return err.code ? `connection_error:${err.code}` : 'connection_error';
  }
}
