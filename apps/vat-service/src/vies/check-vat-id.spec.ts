import type { CachedVatCheck, VatCache } from '../cache/vat-cache';
import { isTransientViesFault } from '../domain/vies-faults';
import type { ViesRequester, ViesResult } from '../domain/vies-result';
import { checkVatId, type CheckVatIdDeps } from './check-vat-id';

/** Use-case rules with a scripted VIES and an in-memory cache; the wire is covered by check-vat-id.int.spec.ts. */
function setup(script: ViesResult[], options: { cache?: Map<string, CachedVatCheck>; failingCache?: boolean } = {}) {
  const calls: Array<{ countryCode: string; vatNumber: string; requester?: ViesRequester }> = [];
  const sleeps: number[] = [];
  const store = options.cache ?? new Map<string, CachedVatCheck>();
  const cacheErrors: unknown[] = [];
  const cache: VatCache = {
    keyOf: (cc, n) => `vies:${cc}${n}`,
    get: async (cc, n) => {
      if (options.failingCache) throw new Error('redis down');
      return store.get(`vies:${cc}${n}`) ?? null;
    },
    set: async (entry) => {
      if (options.failingCache) throw new Error('redis down');
      store.set(`vies:${entry.countryCode}${entry.vatNumber}`, entry);
    },
    delete: async (cc, n) => void store.delete(`vies:${cc}${n}`),
  };
  const deps: CheckVatIdDeps = {
    client: {
      checkVat: async (countryCode, vatNumber, requester) => {
        calls.push({ countryCode, vatNumber, requester });
        const next = script.shift();
        if (!next) throw new Error('VIES asked more often than scripted');
        return next;
      },
    },
    cache,
    sleep: async (ms) => void sleeps.push(ms),
    now: () => new Date('2026-03-04T05:06:07.000Z'),
    retryPolicy: { maxAttempts: 3, backoffMs: [200, 1000], jitterRatio: 0 },
    onCacheError: (error) => cacheErrors.push(error),
  };
  return { deps, calls, sleeps, store, cacheErrors };
}

const valid: ViesResult = {
  kind: 'valid',
  countryCode: 'DE',
  vatNumber: '143454214',
  requestDate: '2026-03-04',
  name: 'SAP SE',
  address: 'DIETMAR-HOPP-ALLEE 16, 69190 WALLDORF',
};
const invalid: ViesResult = { kind: 'invalid', countryCode: 'DE', vatNumber: '143454214', requestDate: '2026-03-04' };
const fault = (code: string): ViesResult => ({ kind: 'fault', fault: code, transient: isTransientViesFault(code) });

describe('checkVatId', () => {
  it('answers valid with the VIES evidence and caches it', async () => {
    const { deps, calls, store } = setup([valid]);
    const outcome = await checkVatId({ vatId: 'de 143 454 214' }, deps);
    expect(outcome).toEqual({
      status: 'valid',
      vatId: 'DE143454214',
      countryCode: 'DE',
      checkedAt: '2026-03-04T05:06:07.000Z',
      requestDate: '2026-03-04',
      name: 'SAP SE',
      address: 'DIETMAR-HOPP-ALLEE 16, 69190 WALLDORF',
      attempts: 1,
      cached: false,
    });
    expect(calls).toEqual([{ countryCode: 'DE', vatNumber: '143454214', requester: undefined }]);
    expect(store.get('vies:DE143454214')).toMatchObject({ status: 'valid', name: 'SAP SE' });
  });

  it('answers invalid when VIES says so', async () => {
    const { deps } = setup([invalid]);
    expect(await checkVatId({ vatId: 'DE143454214' }, deps)).toMatchObject({ status: 'invalid', attempts: 1 });
  });

  it('rejects a syntax-invalid ID without asking VIES or the cache', async () => {
    const { deps, calls, store } = setup([]);
    const outcome = await checkVatId({ vatId: 'DE136695977' }, deps);
    expect(outcome).toMatchObject({ status: 'invalid', vatId: 'DE136695977', countryCode: 'DE', attempts: 0, cached: false });
    expect(outcome.reason).toMatch(/check digit/);
    expect(calls).toHaveLength(0);
    expect(store.size).toBe(0);
  });

  it.each(['', 'not a vat id', 'US123456789'])('rejects bad input %j', async (vatId) => {
    const { deps, calls } = setup([]);
    expect(await checkVatId({ vatId }, deps)).toMatchObject({ status: 'invalid', attempts: 0 });
    expect(calls).toHaveLength(0);
  });

  it('retries transient faults with the backoff and reports unavailable, never invalid', async () => {
    const { deps, sleeps, store } = setup([fault('MS_UNAVAILABLE'), fault('TIMEOUT'), fault('SERVICE_UNAVAILABLE')]);
    const outcome = await checkVatId({ vatId: 'DE143454214' }, deps);
    expect(outcome).toMatchObject({ status: 'unavailable', fault: 'SERVICE_UNAVAILABLE', attempts: 3, cached: false });
    expect(sleeps).toEqual([200, 1000]);
    expect(store.get('vies:DE143454214')).toMatchObject({ status: 'unavailable' });
  });

  it('answers valid when a retry succeeds', async () => {
    const { deps, sleeps } = setup([fault('GLOBAL_MAX_CONCURRENT_REQ'), valid]);
    expect(await checkVatId({ vatId: 'DE143454214' }, deps)).toMatchObject({ status: 'valid', attempts: 2 });
    expect(sleeps).toEqual([200]);
  });

  it('takes INVALID_INPUT as invalid without retrying', async () => {
    const { deps } = setup([fault('INVALID_INPUT')]);
    expect(await checkVatId({ vatId: 'DE143454214' }, deps)).toMatchObject({ status: 'invalid', fault: 'INVALID_INPUT', attempts: 1 });
  });

  it.each(['VAT_BLOCKED', 'IP_BLOCKED', 'INVALID_REQUESTER_INFO'])('reports %s as unavailable without retrying', async (code) => {
    const { deps } = setup([fault(code)]);
    expect(await checkVatId({ vatId: 'DE143454214' }, deps)).toMatchObject({ status: 'unavailable', fault: code, attempts: 1 });
  });

  it('answers from the cache without asking VIES', async () => {
    const { deps, calls } = setup([valid]);
    await checkVatId({ vatId: 'DE143454214' }, deps);
    const second = await checkVatId({ vatId: 'DE 143454214' }, deps);
    expect(second).toMatchObject({ status: 'valid', name: 'SAP SE', cached: true, attempts: 0 });
    expect(calls).toHaveLength(1);
  });

  it('asks VIES again with forceRefresh', async () => {
    const { deps, calls } = setup([valid, invalid]);
    await checkVatId({ vatId: 'DE143454214' }, deps);
    expect(await checkVatId({ vatId: 'DE143454214', forceRefresh: true }, deps)).toMatchObject({ status: 'invalid', cached: false });
    expect(calls).toHaveLength(2);
  });

  it('passes the requester and keeps the consultation number; a cached answer without one is not reused', async () => {
    const requester = { countryCode: 'AT', vatNumber: 'U13585627' };
    const { deps, calls } = setup([valid, { ...valid, consultationNumber: 'WAPIAAAAXYZ' }]);
    await checkVatId({ vatId: 'DE143454214' }, deps);
    const outcome = await checkVatId({ vatId: 'DE143454214', requester }, deps);
    expect(outcome).toMatchObject({ status: 'valid', consultationNumber: 'WAPIAAAAXYZ', cached: false });
    expect(calls[1]!.requester).toEqual(requester);
    expect(await checkVatId({ vatId: 'DE143454214', requester }, deps)).toMatchObject({ consultationNumber: 'WAPIAAAAXYZ', cached: true });
  });

  it('asks again without the requester when VIES refuses the requester', async () => {
    const requester = { countryCode: 'AT', vatNumber: 'U13585627' };
    const { deps, calls } = setup([fault('INVALID_REQUESTER_INFO'), valid]);
    const outcome = await checkVatId({ vatId: 'DE143454214', requester }, deps);
    expect(outcome).toMatchObject({ status: 'valid', attempts: 2 });
    expect(outcome.consultationNumber).toBeUndefined();
    expect(calls.map((c) => c.requester)).toEqual([requester, undefined]);
  });

  it('still checks when the cache fails, and reports the cache error', async () => {
    const { deps, cacheErrors } = setup([valid], { failingCache: true });
    expect(await checkVatId({ vatId: 'DE143454214' }, deps)).toMatchObject({ status: 'valid', cached: false });
    expect(cacheErrors).toHaveLength(2);
  });
});
