import type { CompanyId } from '@inv/contracts';
import { IDENTITY_HEADER, type CompanyRateLimit, type IdentitySigner } from '@inv/service-kit';

/** invoice-service could not be reached or answered 5xx/429: the run is tried again at a later tick. */
export class InvoiceApiUnavailable extends Error {}

export interface ApiAnswer {
  status: number;
  // the invoice API's answers are read loosely: only the fields a run needs
  body: Record<string, unknown>;
}

/**
 * A problem document's message and the fields it names, for last_run.error (never the request, which may carry
 * e-mail addresses): `422 INVOICE_NOT_VALID: the invoice cannot be finalized: … [buyerReference]`.
 */
export const problemText = (a: ApiAnswer) => {
  const fields = Array.isArray(a.body.errors)
    ? [...new Set((a.body.errors as { path?: unknown; field?: unknown }[]).map((e) => String(e.path ?? e.field ?? '')).filter(Boolean))]
    : [];
  const named = fields.length ? ` [${fields.join(', ')}]` : '';
  const text = `${a.status} ${String(a.body.code ?? a.body.error_code ?? '')}: ${String(a.body.detail ?? a.body.message ?? '')}`;
  return `${text.slice(0, 500 - Math.min(named.length, 200))}${named.slice(0, 200)}`;
};

/**
 * Calls invoice-service's public HTTP API as the gateway's proxy does: a short-lived signed identity of the
 * company (role `member`, which may write invoices; key id `recurring-service`, so the audit log names the
 * scheduler as the actor). The same calls an integrator makes; the gateway's Idempotency-Key handling is not on
 * this path, which is why runs are claimed in MongoDB and drafts marked with their run id (see issue-run.ts).
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
  const slot = async (companyId: CompanyId, what: string, signal?: AbortSignal) => {
    if (!opts.rateLimit) return;
    const giveUpAt = Date.now() + rateWaitMs;
    for (;;) {
      const verdict = await opts.rateLimit.take(companyId);
      if (verdict.admitted) return;
      const waitMs = Math.min(1000, Math.max(10, Math.ceil(verdict.resetUs / 1000)));
      if (signal?.aborted || Date.now() + waitMs > giveUpAt)
        throw new InvoiceApiUnavailable(`${what}: the company's rate limit is used up`);
      await sleep(waitMs, signal);
    }
  };
  return async function call(
    companyId: CompanyId,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    extra: { signal?: AbortSignal; extraTimeoutMs?: number; ownRequest?: boolean } = {},
  ): Promise<ApiAnswer> {
    if (!extra.ownRequest) await slot(companyId, `${method} ${path}`, extra.signal);
    const token = await opts.signer.sign({ scope: 'company', companyId, keyId: 'recurring-service', role: 'member' });
    const timeout = AbortSignal.timeout(opts.timeoutMs + (extra.extraTimeoutMs ?? 0));
    let res: Response;
    try {
      res = await fetch(`${opts.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: token },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: extra.signal ? AbortSignal.any([timeout, extra.signal]) : timeout,
      });
    } catch (err) {
      throw new InvoiceApiUnavailable(`${method} ${path}: ${(err as Error).name}`);
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = {};
    }
    const answer = { status: res.status, body: (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown> };
    if (res.status >= 500 || res.status === 429) throw new InvoiceApiUnavailable(`${method} ${path}: ${problemText(answer)}`);
    return answer;
  };
}
export type InvoiceApi = ReturnType<typeof invoiceApi>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
