import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { IDENTITY_HEADER, IDENTITY_TOKEN_TTL_SECONDS, type Identity, type IdentitySigner } from './identity';

/**
 * The one way a service calls another service's HTTP API: signed as the gateway signs (a short-lived identity token
 * in IDENTITY_HEADER), within a timeout for the whole answer, over kept-alive connections, and with a 2xx answer
 * parsed by the contract's zod schema the caller names. What can go wrong is typed:
 *
 * - {@link ServiceUnavailable}: not reached, reset, timed out, aborted, or answered 5xx or 429: ask again later;
 * - {@link ServiceAnswerInvalid}: a 2xx answer that is not JSON or not what the contract says: a bug on one side,
 *   never cast into shape;
 * - any other status (4xx) is an answer: `{ ok: false, status, problem }`, the problem document read leniently
 *   (the status decides; its code, message and field list explain).
 */
export class ServiceUnavailable extends Error {
  override readonly name = 'ServiceUnavailable';
  constructor(
    message: string,
    /** The HTTP status when the service answered (5xx, 429); undefined when it did not. */
    readonly status?: number,
    /** Its problem document, when it answered one. */
    readonly problem?: PeerProblem,
  ) {
    super(message);
  }
}

/** A 2xx answer that the contract does not describe. */
export class ServiceAnswerInvalid extends Error {
  override readonly name = 'ServiceAnswerInvalid';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * A problem document (RFC 9457 plus the members the API adds, libs/contracts ProblemBody) as a caller reads it:
 * every member optional, extra members kept; field findings by `path` (problems) or `field` (validation findings).
 */
export const PeerProblem = z.looseObject({
  code: z.string().optional(),
  error_code: z.string().optional(),
  detail: z.string().optional(),
  message: z.string().optional(),
  errors: z.array(z.looseObject({ path: z.string().optional(), field: z.string().optional(), message: z.string().optional() })).optional(),
});
export type PeerProblem = z.infer<typeof PeerProblem>;

export type ServiceAnswer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; problem: PeerProblem };

export interface ServiceCall<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, appended to the service's base URL. */
  path: string;
  /** Whom the call is made for: signed into the token. */
  identity: Identity;
  /** The contract schema of a 2xx answer's body (`z.undefined()` for none). */
  answer: S;
  /** A JSON body. */
  body?: unknown;
  /** Ends the call early (it then fails as ServiceUnavailable). */
  signal?: AbortSignal;
  /** Added to the client's timeout for this call (a long poll). */
  extraTimeoutMs?: number;
  /** More request headers (never an identity). */
  headers?: Record<string, string>;
}

export interface ServiceClientOptions {
  /** The service's base URL, e.g. http://invoice-service:3003. */
  url: string;
  /** Its name in error messages (`invoice-service`). */
  service: string;
  signer: IdentitySigner;
  /** The whole answer within this time, a slow trickle too. */
  timeoutMs: number;
  /**
   * Keep a signed token for an identity a third of its lifetime instead of signing one per call (for a caller making
   * many calls for the same few identities: webhook-service's resource reads).
   */
  reuseTokens?: boolean;
  /** Connections kept open per host. */
  maxSockets?: number;
  /** Kept-alive connections shared with other clients (made with {@link keepAliveAgents}; closed by their maker). */
  agents?: KeepAliveAgents;
}

export type KeepAliveAgents = { http: http.Agent; https: https.Agent };

/** Agents that keep connections open for the next call (shared by the clients of several services on one host). */
export function keepAliveAgents(maxSockets = 32): KeepAliveAgents & { close(): void } {
  const agents = { http: new http.Agent({ keepAlive: true, maxSockets }), https: new https.Agent({ keepAlive: true, maxSockets }) };
  return { ...agents, close: () => (agents.http.destroy(), agents.https.destroy()) };
}

export type ServiceClient = ReturnType<typeof serviceClient>;

type Raw = { status: number; text: string };

export function serviceClient(opts: ServiceClientOptions) {
  const own = opts.agents ? undefined : keepAliveAgents(opts.maxSockets);
  const agents: KeepAliveAgents = opts.agents ?? own!;
  const tokens = new Map<string, { token: Promise<string>; until: number }>();
  const tokenOf = (identity: Identity): Promise<string> => {
    if (!opts.reuseTokens) return opts.signer.sign(identity);
    const key = JSON.stringify(identity);
    const now = Date.now();
    const kept = tokens.get(key);
    if (kept && kept.until > now) return kept.token;
    if (tokens.size > 10_000) tokens.clear();
    const token = opts.signer.sign(identity);
    tokens.set(key, { token, until: now + (IDENTITY_TOKEN_TTL_SECONDS * 1000) / 3 });
    token.catch(() => tokens.delete(key));
    return token;
  };

  function send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    payload: string | undefined,
    timeoutMs: number,
    signal?: AbortSignal,
  ) {
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise<Raw>((resolve, reject) => {
      let answered = false;
      const fail = (err: Error) => (clearTimeout(timer), signal?.removeEventListener('abort', onAbort), reject(err));
      const req = mod.request(url, { method, agent: url.protocol === 'https:' ? agents.https : agents.http, headers }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', fail);
      });
      const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), timeoutMs);
      const onAbort = () => req.destroy(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err: NodeJS.ErrnoException) => {
        // no answer began on a reused connection that was reset: the owner closed it meanwhile (it restarted)
        const stale = req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') && !answered;
        fail(Object.assign(err, { staleSocket: stale }));
      });
      req.end(payload);
    });
  }

  async function call<S extends z.ZodType>(c: ServiceCall<S>): Promise<ServiceAnswer<z.output<S>>> {
    const what = `${opts.service} ${c.method} ${c.path.split('?')[0]}`;
    const payload = c.body === undefined ? undefined : JSON.stringify(c.body);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...c.headers,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      [IDENTITY_HEADER]: await tokenOf(c.identity),
    };
    const url = new URL(`${opts.url}${c.path}`);
    const timeoutMs = opts.timeoutMs + (c.extraTimeoutMs ?? 0);
    let raw: Raw;
    try {
      try {
        raw = await send(url, c.method, headers, payload, timeoutMs, c.signal);
      } catch (err) {
        // a kept-alive connection closed by the other side fails as it is reused: a GET is asked again on a new one
        if (!(err as { staleSocket?: boolean }).staleSocket || c.method !== 'GET') throw err;
        raw = await send(url, c.method, headers, payload, timeoutMs, c.signal);
      }
    } catch (err) {
      throw new ServiceUnavailable(
        `${what}: ${(err as Error).name === 'Error' ? ((err as NodeJS.ErrnoException).code ?? 'failed') : (err as Error).name}`,
      );
    }
    let json: unknown;
    let isJson = true;
    try {
      json = raw.text ? JSON.parse(raw.text) : undefined;
    } catch {
      isJson = false;
    }
    if (raw.status >= 200 && raw.status < 300) {
      if (!isJson) throw new ServiceAnswerInvalid(`${what}: answered ${raw.status} with a body that is not JSON`, raw.status);
      const parsed = c.answer.safeParse(json);
      if (!parsed.success) {
        const issues = parsed.error.issues
          .slice(0, 5)
          .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
          .join('; ');
        throw new ServiceAnswerInvalid(`${what}: answered ${raw.status} not as its contract says: ${issues}`, raw.status);
      }
      return { ok: true, status: raw.status, body: parsed.data };
    }
    const read = isJson ? PeerProblem.safeParse(json ?? {}) : undefined;
    const problem: PeerProblem = read?.success ? read.data : {};
    if (raw.status >= 500 || raw.status === 429 || raw.status < 200)
      throw new ServiceUnavailable(`${what}: ${problemText(raw.status, problem)}`, raw.status, problem);
    return { ok: false, status: raw.status, problem };
  }

  return {
    call,
    /** Closes the kept-alive connections (its own; shared agents are closed by their maker). */
    close(): void {
      own?.close();
    },
  };
}

/**
 * A problem's status, code, message and the fields it names, short enough for a log line or a stored error (never
 * the request, which may carry e-mail addresses): `422 INVOICE_NOT_VALID: the invoice cannot be finalized … [buyerReference]`.
 */
export function problemText(status: number, problem: PeerProblem): string {
  const fields = [...new Set((problem.errors ?? []).map((e) => String(e.path ?? e.field ?? '')).filter(Boolean))];
  const named = fields.length ? ` [${fields.join(', ')}]` : '';
  const text = `${status} ${problem.code ?? problem.error_code ?? ''}: ${problem.detail ?? problem.message ?? ''}`;
  return `${text.slice(0, 500 - Math.min(named.length, 200))}${named.slice(0, 200)}`;
}
