import { fairLimits, fairShare, type Slot } from './fair-share';

const takeAll = (share: ReturnType<typeof fairShare>, companyId: string, endpoints: string[], each: number) => {
  const slots: Slot[] = [];
  for (const e of endpoints)
    for (let i = 0; i < each; i++) {
      const s = share.take(companyId, e);
      if (s) slots.push(s);
    }
  return slots;
};
const endpointsOf = (company: string, n: number) => Array.from({ length: n }, (_, i) => `we_${company}_${i}`);

describe('fair share of delivery slots', () => {
  it('derives the limits: a company at most half the replica, its slow endpoints a quarter of its share', () => {
    expect(fairLimits({ global: 64, endpoint: 4, company: 16 })).toEqual({
      global: 64,
      endpoint: 4,
      company: 16,
      slowCompany: 4,
      slowGlobal: 32,
    });
    expect(fairLimits({ global: 8, endpoint: 4, company: 16 })).toMatchObject({ company: 4, slowCompany: 1, slowGlobal: 4 });
    expect(fairLimits({ global: 1, endpoint: 1, company: 1 })).toMatchObject({ company: 1, slowCompany: 1, slowGlobal: 1 });
  });

  it("16 endpoints of one company take the company's 16 slots, not the replica's 64; another company still gets its own", () => {
    const share = fairShare(fairLimits({ global: 64, endpoint: 4, company: 16 }));
    expect(takeAll(share, 'cmp_a', endpointsOf('a', 16), 4)).toHaveLength(16);
    expect(share.blocked().companies).toEqual(['cmp_a']);
    expect(share.free()).toBe(48);
    expect(share.take('cmp_b', 'we_b')).toBeDefined();
  });

  it("endpoints that time out share a quarter of their company's slots; the slot is freed with the counts it took", () => {
    const share = fairShare(fairLimits({ global: 64, endpoint: 4, company: 16 }));
    const eps = endpointsOf('a', 16);
    const first = takeAll(share, 'cmp_a', eps, 1);
    for (const s of first) {
      share.release(s);
      share.observe('cmp_a', s.endpointId, true);
    }
    const slow = takeAll(share, 'cmp_a', eps, 4);
    expect(slow).toHaveLength(4);
    expect(slow.every((s) => s.slow)).toBe(true);
    // the claim skips every slow endpoint of the company (its slow share is used), not the company itself
    expect(share.blocked().endpoints.sort()).toEqual([...eps].sort());
    expect(share.blocked().companies).toEqual([]);
    // an endpoint of the company that answers in time is not slow: it gets its own slots
    expect(share.take('cmp_a', 'we_a_fast')).toMatchObject({ slow: false });
    // one answer in time makes an endpoint normal again
    share.observe('cmp_a', eps[1]!, false);
    expect(share.isSlow(eps[1]!)).toBe(false);
    expect(share.take('cmp_a', eps[1]!)).toMatchObject({ slow: false });
    for (const s of slow) share.release(s);
    expect(share.stats()).toMatchObject({ inFlight: 2, slowInFlight: 0 });
  });

  it("an attempt running past the slow threshold counts as slow at once: the company's slow endpoints wait, others do not", () => {
    const share = fairShare(fairLimits({ global: 64, endpoint: 4, company: 16 }));
    const eps = endpointsOf('a', 16);
    const first = takeAll(share, 'cmp_a', eps, 1);
    for (const s of first) share.slowDown(s);
    expect(share.stats()).toMatchObject({ inFlight: 16, slowInFlight: 16, slowEndpoints: 16 });
    // 16 slow in flight, beyond its slow share of 4: none of its slow endpoints gets a slot until they end
    expect(takeAll(share, 'cmp_a', eps, 1)).toHaveLength(0);
    expect(share.take('cmp_b', 'we_b')).toMatchObject({ slow: false });
    for (const s of first.slice(0, 13)) share.release(s);
    expect(takeAll(share, 'cmp_a', eps, 1)).toHaveLength(1);
  });

  it('however many companies time out, the others keep half of the replica', () => {
    const share = fairShare(fairLimits({ global: 64, endpoint: 4, company: 16 }));
    const companies = Array.from({ length: 20 }, (_, i) => `cmp_${i}`);
    for (const c of companies) for (const e of endpointsOf(c, 16)) share.observe(c, e, true);
    const taken = companies.flatMap((c) => takeAll(share, c, endpointsOf(c, 16), 4));
    expect(taken).toHaveLength(32);
    expect(share.stats().slowInFlight).toBe(32);
    // every slow endpoint is skipped now
    expect(share.blocked().endpoints).toHaveLength(20 * 16);
    const healthy = ['cmp_x', 'cmp_y', 'cmp_z'].flatMap((c) => takeAll(share, c, endpointsOf(c, 16), 4));
    expect(healthy).toHaveLength(32);
    expect(share.free()).toBe(0);
  });

  it('keeps the per-endpoint limit and forgets the oldest slow endpoint beyond its bound', () => {
    const share = fairShare(fairLimits({ global: 64, endpoint: 2, company: 16 }), 3);
    expect(takeAll(share, 'cmp_a', ['we_1'], 5)).toHaveLength(2);
    expect(share.blocked().endpoints).toEqual(['we_1']);
    for (const e of ['we_s1', 'we_s2', 'we_s3', 'we_s4']) share.observe('cmp_b', e, true);
    expect(['we_s1', 'we_s2', 'we_s3', 'we_s4'].map((e) => share.isSlow(e))).toEqual([false, true, true, true]);
  });
});
