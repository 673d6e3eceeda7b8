import { fairQueue } from './fair-queue';

describe('fairQueue: the documents waiting for the validation worker, companies in turn', () => {
  it("serves companies round robin: one company's backlog gets every other turn when another sends a document", () => {
    const q = fairQueue({ perCompany: 100, total: 1000 });
    for (let id = 1; id <= 5; id++) q.push('attacker', id);
    q.push('victim', 1);
    const order = Array.from({ length: 6 }, () => q.take()).map((d) => `${d!.companyId}:${d!.id}`);
    expect(order).toEqual(['attacker:1', 'victim:1', 'attacker:2', 'attacker:3', 'attacker:4', 'attacker:5']);
    expect(q.take()).toBeUndefined();
  });

  it('queues a document once, and within the bounds per company and in all', () => {
    const q = fairQueue({ perCompany: 2, total: 3 });
    expect([q.push('a', 1), q.push('a', 1), q.push('a', 2), q.push('a', 3)]).toEqual([true, false, true, false]);
    expect([q.push('b', 1), q.push('c', 1)]).toEqual([true, false]);
    expect(q.size).toBe(3);
    expect(q.take()).toEqual({ companyId: 'a', id: 1 });
    expect(q.push('a', 1)).toBe(true); // taken: may come again (a retry)
  });
});
