import type { z } from 'zod';
import type { CompanyId } from '@inv/contracts';
import {
  problemText as peerProblemText,
  serviceClient,
  ServiceUnavailable,
  type CompanyRateLimit,
  type IdentitySigner,
  type ServiceAnswer,
  type ServiceCall,
} from '@inv/service-kit';

/**
 * invoice-service could not be reached, answered 5xx/429, or its rate-limit window stayed full: the run is tried again
 * at a later tick. The shared client's ServiceUnavailable, under the name this service's callers know.
 */
export { ServiceUnavailable as InvoiceApiUnavailable };

export type ApiAnswer<T = unknown> = ServiceAnswer<T>;

/**
 * A refusal's status, code, message and the fields it names, for last_run.error (never the request, which may carry
 * e-mail addresses): `422 INVOICE_NOT_VALID: the invoice cannot be finalized: … [buyerReference]`.
 */
export const problemText = (a: ApiAnswer): string => (a.ok ? `${a.status}: not the answer expected` : peerProblemText(a.status, a.problem));

/** One call of the invoice API: the shared client's call without the identity (always the company's scheduler). */
export type InvoiceCall<S extends z.ZodType> = Omit<ServiceCall<S>, 'identity'> & {
  /** A call made while answering the company's own request (it was counted by the gateway): no rate-limit slot. */
  ownRequest?: boolean;
};

/**
 * Calls invoice-service's public HTTP API as the gateway's proxy does, through the shared signed client
 * (libs/service-kit serviceClient): a short-lived signed identity of the company (role `member`, which may write
 * invoices; key id `recurring-service`, so the audit log names the scheduler as the actor), each answer checked
 * against the contract schema the caller names. The same calls an integrator makes; the gateway's Idempotency-Key
 * handling is not on this path, which is why runs are claimed in MongoDB and drafts marked with their run id (see
 * issue-run.ts).
 *
 * Every call first takes a slot of the company's rate-limit window, the one the gateway keeps in Redis for the
 * company's API requests (`rateLimit`), so the scheduler's calls count against the same per-company limit: when
 * the window is full the call waits for a free slot (at most `rateWaitMs`, then the run is left for a later tick).
 * A call made while answering the company's own request (`ownRequest`: the template check when a schedule is
 * saved) takes no slot: that request was counted by the gateway already.
 */
export function invoiceApi(opts: {
  url: string;
  signer: IdentitySigner;
  timeoutMs: number;
  rateLimit?: CompanyRateLimit;
  /** Longest wait for a free slot of the company's window before the call counts as unavailable. */
  rateWaitMs?: number;
}) {
  const rateWaitMs = opts.rateWaitMs ?? 10_000;
  const client = serviceClient({ url: opts.url, service: 'invoice-service', signer: opts.signer, timeoutMs: opts.timeoutMs });
  const slot = async (companyId: CompanyId, what: string, signal?: AbortSignal) => {
    if (!opts.rateLimit) return;
    const giveUpAt = Date.now() + rateWaitMs;
    for (;;) {
      const verdict = await opts.rateLimit.take(companyId);
      if (verdict.admitted) return;
      const waitMs = Math.min(1000, Math.max(10, Math.ceil(verdict.resetUs / 1000)));
      if (signal?.aborted || Date.now() + waitMs > giveUpAt) throw new ServiceUnavailable(`${what}: the company's rate limit is used up`);
      await sleep(waitMs, signal);
    }
  };
  async function call<S extends z.ZodType>(companyId: CompanyId, c: InvoiceCall<S>): Promise<ServiceAnswer<z.output<S>>> {
    const { ownRequest, ...rest } = c;
    if (!ownRequest) await slot(companyId, `${c.method} ${c.path}`, c.signal);
    return client.call({ ...rest, identity: { scope: 'company', companyId, keyId: 'recurring-service', role: 'member' } });
  }
  return Object.assign(call, { close: client.close });
}
export type InvoiceApi = ReturnType<typeof invoiceApi>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
