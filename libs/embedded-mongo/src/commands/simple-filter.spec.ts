import { Decimal128, Long, ObjectId, type Document } from 'bson';
import { Query } from 'mingo';
import { simpleMatcher } from './simple-filter';

const oid = new ObjectId('65a1b2c3d4e5f6a7b8c9d0e1');
const when = new Date('2026-11-26T03:00:00.000Z');

const docs: Document[] = [
  { _id: 1, companyId: 'c1', status: 'DRAFT', n: 3, ok: true, at: when, ref: oid },
  { _id: 2, companyId: 'c1', status: 'OPEN', n: 3.0, ok: false, at: new Date(when.getTime() + 1), finalizingJobId: 'j' },
  { _id: 3, companyId: 'c2', status: null, n: '3', ok: 1, sub: { status: 'DRAFT' } },
  { _id: 4, companyId: 'c1', status: ['DRAFT', 'OPEN'], n: [3], ref: new ObjectId() },
  { _id: 5, companyId: 'c1', n: Long.fromNumber(3), finalizingJobId: null },
  { _id: 6, companyId: 'c1', n: Decimal128.fromString('3'), status: { $eq: 'DRAFT' } },
  { _id: '1', companyId: 'c1', status: 'draft', n: -0, at: when.toISOString() },
];

const simpleFilters: Document[] = [
  {},
  { _id: 1 },
  { _id: '1' },
  { companyId: 'c1', status: 'DRAFT' },
  { companyId: 'c1', status: 'DRAFT', finalizingJobId: { $exists: false } },
  { finalizingJobId: { $exists: true } },
  { n: 3 },
  { n: 0 },
  { ok: true },
  { ok: 1 },
  { at: when },
  { ref: oid },
  { status: { $exists: false } },
  { sub: { $exists: true }, companyId: 'c2' },
];

describe('simpleMatcher', () => {
  it('answers every simple filter as mingo does, or leaves the document to mingo', () => {
    for (const filter of simpleFilters) {
      const match = simpleMatcher(filter);
      expect(match).toBeDefined();
      const q = new Query(filter);
      for (const doc of docs) {
        const answer = match!(doc);
        if (answer !== undefined) expect({ filter, id: doc._id, answer }).toEqual({ filter, id: doc._id, answer: q.test(doc) });
      }
    }
  });

  it('leaves arrays and BSON numbers to mingo', () => {
    expect(simpleMatcher({ status: 'DRAFT' })!(docs[3])).toBeUndefined();
    expect(simpleMatcher({ n: 3 })!(docs[4])).toBeUndefined();
    expect(simpleMatcher({ n: 3 })!(docs[5])).toBeUndefined();
  });

  it('takes no filter outside its subset', () => {
    for (const filter of [
      { 'sub.status': 'DRAFT' },
      { $or: [{ a: 1 }] },
      { status: null },
      { status: { $eq: 'DRAFT' } },
      { status: { $in: ['DRAFT'] } },
      { status: /DR/ },
      { status: ['DRAFT', 'OPEN'] },
      { sub: { status: 'DRAFT' } },
      { finalizingJobId: { $exists: 1 } },
      { finalizingJobId: { $exists: false, $ne: 'j' } },
      { n: Decimal128.fromString('3') },
      { n: Long.fromNumber(3) },
      { '': 1 },
    ]) {
      expect(simpleMatcher(filter)).toBeUndefined();
    }
  });
});
