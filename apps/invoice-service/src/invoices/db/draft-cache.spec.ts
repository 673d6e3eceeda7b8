import { asCompanyId, PositionCreateInput } from '@inv/contracts';
import { addPosition } from '../usecases/add-position';
import { createInvoice } from '../usecases/create-invoice';
import { draftCache } from './draft-cache';
import { deletePosition } from '../usecases/delete-position';
import { reorderPositions } from '../usecases/reorder-positions';
import { COMPANY, fakeDeps, position, storedDraft } from '../../testing/fake-deps';
import { updateInvoice } from '../usecases/update-invoice';
import { updatePosition } from '../usecases/update-position';

const OTHER = asCompanyId('cmp_other');

const input = (title: string) => PositionCreateInput.parse({ title, quantity: '1', unit_id: 'C62', unit_net_amount: '10' });
const LATER = new Date('2026-12-01T00:00:00Z');

describe('position changes on the draft as this process last wrote it', () => {
  it('adds positions one after the other with one read of the draft', async () => {
    const f = fakeDeps({}, { draftCacheMs: 30_000 });
    storedDraft(f, 1);
    for (const title of ['a', 'b', 'c']) await addPosition(f.deps, COMPANY, 1, input(title));
    expect(f.reads()).toBe(1);
    expect(f.invoices.get(1)!.positions.map((p) => p.title)).toEqual(['a', 'b', 'c']);
    await updatePosition(f.deps, COMPANY, 1, f.invoices.get(1)!.positions[0].id, { title: 'A' });
    await reorderPositions(f.deps, COMPANY, 1, [...f.invoices.get(1)!.positions.map((p) => p.id)].reverse());
    await deletePosition(f.deps, COMPANY, 1, f.invoices.get(1)!.positions[0].id);
    expect(f.reads()).toBe(1);
    expect(f.invoices.get(1)!.positions.map((p) => p.title)).toEqual(['b', 'A']);
  });

  it("takes a draft's first position without a read: the created draft is remembered as a read would give it", async () => {
    const f = fakeDeps({}, { draftCacheMs: 30_000 });
    const id = await createInvoice(f.deps, COMPANY, { customer_id: 1, note: 'n' });
    const copy = f.deps.drafts.get(COMPANY, id)!;
    expect(Object.values(copy)).not.toContain(undefined); // a stored document has no key for an unset field
    // as stored, but for the audit event kept in the draft until the relay has published it
    const { pendingMessages, ...stored } = f.invoices.get(id)!;
    expect(copy).toEqual(stored);
    expect(pendingMessages).toEqual([
      expect.objectContaining({ type: 'invoice.changed.v1', data: expect.objectContaining({ action: 'created' }) }),
    ]);
    expect(f.messages).toEqual([expect.objectContaining({ type: 'invoice.changed.v1' })]); // handed to the relay
    await addPosition(f.deps, COMPANY, id, input('first'));
    expect(f.reads()).toBe(0);
    expect(f.invoices.get(id)!.positions.map((p) => p.title)).toEqual(['first']);
  });

  it('never writes over a change another request or replica made: it reads the draft and applies the change to it', async () => {
    const f = fakeDeps({}, { draftCacheMs: 30_000 });
    storedDraft(f, 1);
    await addPosition(f.deps, COMPANY, 1, input('mine'));
    const stored = f.invoices.get(1)!;
    stored.positions.push(position(99, { title: 'theirs' })); // another replica's write moves updatedAt
    stored.updatedAt = LATER;
    const { invoice } = await addPosition(f.deps, COMPANY, 1, input('mine too'));
    expect(f.invoices.get(1)!.positions.map((p) => p.title)).toEqual(['mine', 'theirs', 'mine too']);
    expect(invoice.positions.map((p) => p.title)).toEqual(['mine', 'theirs', 'mine too']);
    expect(f.reads()).toBe(2);
  });

  it('checks an error decided on a stale copy against the stored draft (no 404 for a position another replica added)', async () => {
    const f = fakeDeps({}, { draftCacheMs: 30_000 });
    storedDraft(f, 1);
    await addPosition(f.deps, COMPANY, 1, input('mine'));
    const stored = f.invoices.get(1)!;
    stored.positions.push(position(77));
    stored.updatedAt = LATER;
    await updatePosition(f.deps, COMPANY, 1, 77, { title: 'renamed' });
    expect(f.invoices.get(1)!.positions.map((p) => p.title)).toEqual(['mine', 'renamed']);
    await expect(updatePosition(f.deps, COMPANY, 1, 12345, { title: 'x' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('still answers 409 for a real conflict, and for a draft someone started finalizing', async () => {
    const f = fakeDeps({}, { draftCacheMs: 30_000 });
    storedDraft(f, 1);
    await addPosition(f.deps, COMPANY, 1, input('a'));
    f.interfere(2); // the copy's write and the stored draft's write both find it changed
    await expect(addPosition(f.deps, COMPANY, 1, input('b'))).rejects.toMatchObject({ code: 'CONCURRENT_MODIFICATION' });
    await addPosition(f.deps, COMPANY, 1, input('b'));
    f.invoices.get(1)!.finalizingJobId = 'job-1'; // claimed elsewhere; the claim leaves updatedAt as it was
    await expect(addPosition(f.deps, COMPANY, 1, input('c'))).rejects.toMatchObject({ code: 'INVOICE_NOT_DRAFT' });
    expect(f.invoices.get(1)!.positions.map((p) => p.title)).toEqual(['a', 'b']);
  });

  it("drops the copy when the invoice itself changes, even within the same millisecond (the fake's clock stands still)", async () => {
    const f = fakeDeps({}, { draftCacheMs: 30_000 });
    storedDraft(f, 1);
    await addPosition(f.deps, COMPANY, 1, input('before'));
    await updateInvoice(f.deps, COMPANY, 1, { tax_treatment_id: 'reverse_charge' });
    await addPosition(f.deps, COMPANY, 1, input('after'));
    expect(f.invoices.get(1)!.positions.map((p) => p.taxTreatmentId)).toEqual(['standard', 'reverse_charge']);
  });

  it("catches another replica's change of the invoice's tax treatment in the same millisecond (updatedAt unchanged)", async () => {
    const f = fakeDeps({}, { draftCacheMs: 30_000 });
    storedDraft(f, 1);
    await addPosition(f.deps, COMPANY, 1, input('before'));
    f.invoices.get(1)!.taxTreatmentId = 'reverse_charge'; // updateDraft elsewhere, same updatedAt
    await addPosition(f.deps, COMPANY, 1, input('after'));
    expect(f.invoices.get(1)!.positions.map((p) => p.taxTreatmentId)).toEqual(['standard', 'reverse_charge']);
    expect(f.reads()).toBe(2);
  });

  it('reads every time with DRAFT_CACHE_TTL_MS=0', async () => {
    const f = fakeDeps({}, { draftCacheMs: 0 });
    storedDraft(f, 1);
    for (const title of ['a', 'b', 'c']) await addPosition(f.deps, COMPANY, 1, input(title));
    expect(f.reads()).toBe(3);
  });
});

describe('draftCache', () => {
  const draft = (id: number, positions = 0) => ({
    ...storedDraft(fakeDeps(), id),
    positions: Array.from({ length: positions }, (_, i) => position(i)),
  });

  it('forgets a copy after its TTL', () => {
    let t = 5000;
    const cache = draftCache({ ttlMs: 1000, now: () => t });
    cache.remember(draft(1));
    t = 5999;
    expect(cache.get(COMPANY, 1)?.id).toBe(1);
    t = 6001;
    expect(cache.get(COMPANY, 1)).toBeUndefined();
  });

  it('is bounded by entries and by positions held, and keeps companies apart', () => {
    const cache = draftCache({ ttlMs: 60_000, maxEntries: 3, maxPositions: 100 });
    for (let id = 1; id <= 4; id++) cache.remember(draft(id));
    expect([1, 2, 3, 4].map((id) => cache.get(COMPANY, id) !== undefined)).toEqual([false, true, true, true]);
    cache.remember(draft(5, 98)); // 99 of 100: the others make room
    expect(cache.get(COMPANY, 5)).toBeDefined();
    expect([2, 3, 4].filter((id) => cache.get(COMPANY, id)).length).toBeLessThanOrEqual(1);
    expect(cache.get(OTHER, 5)).toBeUndefined();
    cache.forget(COMPANY, 5);
    expect(cache.get(COMPANY, 5)).toBeUndefined();
  });
});
