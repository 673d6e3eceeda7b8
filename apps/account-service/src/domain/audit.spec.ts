import { entryHash, GENESIS_HASH, verifyChain, type ChainEntry } from './audit';

const chain = (n: number): ChainEntry[] => {
  const out: ChainEntry[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const record = {
      companyId: 'cmp_a',
      at: `2026-11-0${seq}T00:00:00.000Z`,
      action: 'invoice.finalized',
      resourceType: 'invoice',
      resourceId: String(seq),
      fields: ['status'],
      actor: { keyId: 'k1' },
    };
    const hash = entryHash(seq, prev, record);
    out.push({ ...record, seq, prevHash: prev, hash });
    prev = hash;
  }
  return out;
};

describe('audit hash chain', () => {
  it('verifies an untouched chain', () => {
    expect(verifyChain(chain(5))).toMatchObject({ ok: true, last: { seq: 5 } });
  });
  it('names the first changed, removed or re-linked entry', () => {
    const changed = chain(5);
    changed[2] = { ...changed[2], fields: ['status', 'total'] };
    expect(verifyChain(changed)).toMatchObject({ ok: false, seq: 3 });
    const actor = chain(5);
    actor[1] = { ...actor[1], actor: { keyId: 'k2' } };
    expect(verifyChain(actor)).toMatchObject({ ok: false, seq: 2 });
    const removed = chain(5);
    removed.splice(3, 1);
    expect(verifyChain(removed)).toMatchObject({ ok: false, seq: 4, reason: expect.stringContaining('missing') });
    // a rewritten entry with a recomputed hash still breaks the link of the next one
    const rewritten = chain(5);
    const fake = { ...rewritten[1], action: 'invoice.cancelled' };
    rewritten[1] = { ...fake, hash: entryHash(2, fake.prevHash, fake) };
    expect(verifyChain(rewritten)).toMatchObject({ ok: false, seq: 3, reason: expect.stringContaining('prev_hash') });
  });
});
