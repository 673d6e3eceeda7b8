import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A POST the client sent with an `Idempotency-Key` (the gateway signs the key and its fingerprint of the request
 * into the identity token). While it is handled, every `commit` of the service records its result under the key in
 * the same transaction (libs/outbox request-journal.ts), so a retry of a request whose answer was lost answers the
 * first result instead of doing the work twice.
 */
export interface IdempotentRequest {
  companyId: string;
  key: string;
  /** SHA-256 of method, path and body, as the gateway computed it: the same key with another request is refused. */
  fingerprint: string;
  /** Commits made so far while handling this request (the next one's index in the journal). */
  commits: number;
  /** Results of the commits of an earlier attempt, in order: a commit with such an index answers it and writes nothing. */
  replayed: unknown[];
}

const store = new AsyncLocalStorage<IdempotentRequest>();

export const runIdempotent = <T>(request: IdempotentRequest, fn: () => T): T => store.run(request, fn);

/** The idempotent request being handled, if any. */
export const currentIdempotentRequest = (): IdempotentRequest | undefined => store.getStore();

/** Runs `fn` outside any idempotent request (work a request starts that is not the request's own change). */
export const outsideIdempotentRequest = <T>(fn: () => T): T => store.exit(fn);

/** Secrets an answer may carry once (a new API key, a webhook signing secret): never kept in a journal or a replay. */
// members' session secrets and access tokens (POST /auth/sessions answers them) too: `ms_`/`mt_` + 64 hex
const SECRETS = [/ak_(live|test)_[0-9a-f]{32}/g, /whsec_[A-Za-z0-9+/]{16,}={0,2}/g, /m[st]_[0-9a-f]{64}/g];
export const redactSecrets = (text: string): string =>
  SECRETS.reduce(
    (t, re) => t.replace(re, (m) => `${m.slice(0, m.startsWith('ak_') ? m.indexOf('_', 3) + 1 : m.indexOf('_') + 1)}${'*'.repeat(32)}`),
    text,
  );
