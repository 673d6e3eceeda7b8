import type { z } from 'zod';
import type { Logger } from '@inv/service-kit';

type Json = Record<string, unknown>;
/** The API's answer to a page: its body as the contract says (2xx), or the problem it answered. */
export type PageAnswer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; body: Json };

/** Who a page calls the API as: the signed-in member's short-lived access token (or none, for the sign-in routes). */
export interface As {
  token?: string;
  requestId: string;
  /** Sent as Idempotency-Key: a form's POST carries one, so a double submit is done once. */
  idempotencyKey?: string;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A JSON call of the public API (path below /api/v1, query string included), its 2xx answer checked against `answer`. */
export type PageCaller = <S extends z.ZodType>(
  method: Method,
  path: string,
  body: unknown,
  as: As,
  answer: S,
) => Promise<PageAnswer<z.output<S>>>;

/** A call whose body or answer is not JSON (a PDF, an XML, a ZIP; an upload): the gateway's response as it came. */
export type RawCaller = (
  method: Method,
  path: string,
  as: As,
  body?: { contentType: string; data: Buffer | Uint8Array | string },
) => Promise<globalThis.Response>;

export class ApiUnreachable extends Error {}

/**
 * The web app's only way to the platform: the public API through the gateway, like any integrator, with the
 * member's access token as `Authorization: Bearer` (the gateway checks it like an API key and signs the member's
 * identity for the services). A 2xx answer that does not match the page's contract is a 502 for the page; an
 * unreachable gateway a 503.
 */
export function gatewayApi(deps: { gatewayUrl: string; logger: Logger; timeoutMs?: number }): { call: PageCaller; raw: RawCaller } {
  const base = deps.gatewayUrl.replace(/\/+$/, '');
  const headersOf = (as: As, extra: Record<string, string> = {}) => ({
    ...(as.token ? { authorization: `Bearer ${as.token}` } : {}),
    ...(as.requestId ? { 'x-request-id': as.requestId } : {}),
    ...(as.idempotencyKey ? { 'idempotency-key': as.idempotencyKey } : {}),
    ...extra,
  });
  const raw: RawCaller = async (method, path, as, body) => {
    try {
      return await fetch(`${base}/api/v1${path}`, {
        method,
        headers: headersOf(as, body ? { 'content-type': body.contentType } : {}),
        body: body ? (typeof body.data === 'string' ? body.data : new Uint8Array(body.data)) : undefined,
        signal: AbortSignal.timeout(deps.timeoutMs ?? 30_000),
        redirect: 'manual',
      });
    } catch (err) {
      deps.logger.warn({ err, path: path.split('?')[0] }, 'web app: the gateway is unreachable');
      throw new ApiUnreachable('the gateway is unreachable');
    }
  };
  const call: PageCaller = async (method, path, body, as, answer) => {
    let res: globalThis.Response;
    try {
      res = await raw(method, path, as, body === undefined ? undefined : { contentType: 'application/json', data: JSON.stringify(body) });
    } catch {
      return { ok: false, status: 503, body: { code: 'SERVICE_UNAVAILABLE' } };
    }
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (res.status >= 200 && res.status < 300) {
      const parsed = answer.safeParse(res.status === 204 ? {} : json);
      if (parsed.success) return { ok: true, status: res.status, body: parsed.data };
      deps.logger.warn(
        { path: path.split('?')[0], issues: parsed.error.issues.slice(0, 3) },
        'web app: the API answered what the page does not expect',
      );
      return { ok: false, status: 502, body: {} };
    }
    return { ok: false, status: res.status, body: json && typeof json === 'object' ? (json as Json) : {} };
  };
  return { call, raw };
}
