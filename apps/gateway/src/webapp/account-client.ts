import type { z } from 'zod';
import {
  AppError,
  serviceClient,
  ServiceAnswerInvalid,
  ServiceUnavailable,
  type Identity,
  type IdentitySigner,
  type Logger,
  type PeerProblem,
} from '@inv/service-kit';

/** A service's answer to a page: its body as the contract says (2xx), or the problem it answered. */
export type PageAnswer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; body: PeerProblem };

export type PageCaller = <S extends z.ZodType>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  identity: Identity,
  answer: S,
) => Promise<PageAnswer<z.output<S>>>;

/** Calls account-service as the API does: with a signed identity (the web app's member, or internal). */
export function accountCaller(deps: { accountUrl: string; signer: IdentitySigner; logger: Logger }): PageCaller {
  return serviceCaller({
    ...deps,
    url: deps.accountUrl,
    what: 'account-service',
    unavailable: 'the account settings are temporarily unavailable; retry shortly',
  });
}

/**
 * Calls a service's HTTP API for the web app's pages, through the shared signed client (libs/service-kit
 * serviceClient), as the gateway's proxy would: the 2xx answer checked against the contract the page names. A
 * service that answered an error (a 5xx too) gives the page its problem to show; one that cannot be reached is a
 * 503 (`unavailable`), and one that answered what its contract does not say a 502.
 */
export function serviceCaller(deps: {
  url: string;
  what: string;
  unavailable: string;
  signer: IdentitySigner;
  logger: Logger;
}): PageCaller {
  const client = serviceClient({ url: deps.url, service: deps.what, signer: deps.signer, timeoutMs: 10_000 });
  return async (method, path, body, identity, answer) => {
    try {
      const got = await client.call({ method, path, body, identity, answer });
      return got.ok ? got : { ok: false, status: got.status, body: got.problem };
    } catch (err) {
      if (err instanceof ServiceUnavailable && err.status !== undefined) return { ok: false, status: err.status, body: err.problem ?? {} };
      if (err instanceof ServiceAnswerInvalid) {
        deps.logger.warn({ err, path }, `web app: ${deps.what} answered what its contract does not say`);
        return { ok: false, status: 502, body: {} };
      }
      if (!(err instanceof ServiceUnavailable)) throw err;
      deps.logger.warn({ err, path }, `web app: ${deps.what} unreachable`);
      throw new AppError('unavailable', deps.unavailable, { code: 'SERVICE_UNAVAILABLE' });
    }
  };
}
