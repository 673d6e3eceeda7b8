import { checkVatIdSyntax, normalizeVatId, VIES_FAULTS } from '@inv/contracts';
import { secondsSince, viesMetrics } from '@inv/telemetry';
import type { CachedVatCheck, VatCache } from '../cache/vat-cache';
import { DEFAULT_RETRY_POLICY, nextStep, type RetryPolicy, type VatCheckStatus } from '../domain/vat-check-decision';
import type { ViesRequester, ViesResult } from '../domain/vies-result';
import type { ViesClient } from './vies-client';

export type VatCheckOutcome = {
  status: VatCheckStatus;
  /** Normalised VAT ID with country prefix, e.g. DE143454214. */
  vatId: string;
  countryCode: string;
  /** When we (or the cached check) asked VIES; ISO timestamp. */
  checkedAt: string;
  /** Audit evidence as VIES gave it. */
  requestDate?: string;
  name?: string;
  address?: string;
  consultationNumber?: string;
  /** The VIES fault behind `unavailable` (or INVALID_INPUT behind `invalid`). */
  fault?: string;
  /** Why the syntax check rejected the VAT ID (VIES was not asked). */
  reason?: string;
  /** VIES calls made for this outcome (0 for syntax rejects and cache hits). */
  attempts: number;
  cached: boolean;
};

export type CheckVatIdInput = {
  vatId: string;
  /** Our own VAT ID: VIES then issues a consultation number (checkVatApprox). */
  requester?: ViesRequester;
  /** Skip the cache lookup (the answer is still cached). */
  forceRefresh?: boolean;
};

export type CheckVatIdDeps = {
  client: ViesClient;
  cache: VatCache;
  sleep: (ms: number) => Promise<void>;
  now: () => Date;
  retryPolicy?: RetryPolicy;
  /** [0, 1) source for backoff jitter (default Math.random). */
  random?: () => number;
  /** A failing cache never fails the check; it is reported here (default: ignored). */
  onCacheError?: (error: unknown) => void;
};

/**
 * Checks a VAT ID: syntax first (a malformed ID is invalid without asking VIES), then the cache,
 * then VIES with retries of transient faults. A transient fault is never reported as invalid.
 */
export async function checkVatId(input: CheckVatIdInput, deps: CheckVatIdDeps): Promise<VatCheckOutcome> {
  const syntax = checkVatIdSyntax(input.vatId);
  if (!syntax.ok) {
    const cleaned = typeof input.vatId === 'string' ? normalizeVatId(input.vatId) : '';
    return {
      status: 'invalid',
      vatId: cleaned,
      countryCode: /^[A-Z]{2}/.test(cleaned) ? cleaned.slice(0, 2) : '',
      checkedAt: deps.now().toISOString(),
      reason: syntax.reason,
      attempts: 0,
      cached: false,
    };
  }
  const { countryCode, number, normalized } = syntax;
  const onCacheError = deps.onCacheError ?? (() => undefined);

  if (!input.forceRefresh) {
    const hit = await deps.cache.get(countryCode, number).catch((error: unknown) => {
      onCacheError(error);
      return null;
    });
    if (hit && !(input.requester && hit.status !== 'unavailable' && !hit.consultationNumber)) {
      viesMetrics.cache.inc({ result: 'hit' });
      return { ...fromCache(hit, normalized), cached: true };
    }
    viesMetrics.cache.inc({ result: 'miss' });
  }

  const policy = deps.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const random = deps.random ?? Math.random;
  const attempts: ViesResult[] = [];
  let status: VatCheckStatus;
  let requester = input.requester;
  for (;;) {
    const started = process.hrtime.bigint();
    const result = await deps.client.checkVat(countryCode, number, requester);
    // valid | invalid | unavailable (transient fault) | fault (permanent: bad input, refused requester)
    const outcome = result.kind === 'fault' ? (result.transient ? 'unavailable' : 'fault') : result.kind;
    viesMetrics.requests.inc({ outcome });
    viesMetrics.duration.observe({ outcome }, secondsSince(started));
    attempts.push(result);
    if (requester && result.kind === 'fault' && result.fault === VIES_FAULTS.INVALID_REQUESTER_INFO) {
      // Our own VAT ID was refused: that is our configuration, not the customer's. Ask once more
      // without it; the verdict still counts, only the consultation number is lost.
      requester = undefined;
      continue;
    }
    const step = nextStep(attempts, policy, random());
    if (step.action === 'done') {
      status = step.status;
      break;
    }
    await deps.sleep(step.delayMs);
  }

  const last = attempts[attempts.length - 1]!;
  const entry: CachedVatCheck = {
    status,
    countryCode,
    vatNumber: number,
    checkedAt: deps.now().toISOString(),
    attempts: attempts.length,
    ...(last.kind === 'fault'
      ? { fault: last.fault }
      : { requestDate: last.requestDate, name: last.name, address: last.address, consultationNumber: last.consultationNumber }),
  };
  await deps.cache.set(entry).catch(onCacheError);
  return { ...fromCache(entry, normalized), attempts: attempts.length, cached: false };
}

function fromCache(entry: CachedVatCheck, vatId: string): VatCheckOutcome {
  const outcome: VatCheckOutcome = {
    status: entry.status,
    vatId,
    countryCode: entry.countryCode,
    checkedAt: entry.checkedAt,
    attempts: 0,
    cached: true,
  };
  // Only set what is known, so that the outcome serialises without `undefined` members.
  if (entry.requestDate) outcome.requestDate = entry.requestDate;
  if (entry.name) outcome.name = entry.name;
  if (entry.address) outcome.address = entry.address;
  if (entry.consultationNumber) outcome.consultationNumber = entry.consultationNumber;
  if (entry.fault) outcome.fault = entry.fault;
  return outcome;
}
