import { Schema, type Model } from 'mongoose';
import { useMongo } from './harness';

interface Invoice {
  companyId: number;
  customerId: number;
  status: string;
  total: string;
  totalCents: number;
  tags: string[];
}

describe('aggregation through mongoose', () => {
  const h = useMongo();
  let Invoices: Model<Invoice>;

  beforeAll(async () => {
    Invoices = h
      .conn()
      .model<Invoice>(
        'Invoice',
        new Schema<Invoice>({ companyId: Number, customerId: Number, status: String, total: String, totalCents: Number, tags: [String] }),
        'invoices',
      );
    await Invoices.insertMany([
      { companyId: 1, customerId: 10, status: 'OPEN', total: '10.50', totalCents: 1050, tags: ['a', 'b'] },
      { companyId: 1, customerId: 10, status: 'PAID', total: '5.00', totalCents: 500, tags: ['a'] },
      { companyId: 1, customerId: 11, status: 'OPEN', total: '1.25', totalCents: 125, tags: [] },
      { companyId: 2, customerId: 20, status: 'OPEN', total: '99.00', totalCents: 9900, tags: ['c'] },
    ]);
    await h
      .conn()
      .db!.collection('customers')
      .insertMany([
        { _id: 10, name: 'Acme' },
        { _id: 11, name: 'Globex' },
      ] as never[]);
  });

  it('countDocuments with filter, skip and limit', async () => {
    expect(await Invoices.countDocuments({ companyId: 1 })).toBe(3);
    expect(await Invoices.collection.countDocuments({ companyId: 1 }, { skip: 1, limit: 1 })).toBe(1);
    expect(await Invoices.countDocuments({ companyId: 3 })).toBe(0);
  });

  it('counts with a $group by a constant, and groups by a field path named like one', async () => {
    expect(await Invoices.aggregate([{ $match: { companyId: 1 } }, { $group: { _id: null, n: { $sum: 1 }, twice: { $sum: 2 } } }])).toEqual(
      [{ _id: null, n: 3, twice: 6 }],
    );
    expect(await Invoices.aggregate([{ $match: { companyId: 3 } }, { $group: { _id: 1, n: { $sum: 1 } } }])).toEqual([]);
    const byCustomer = await Invoices.aggregate([{ $match: { companyId: 1 } }, { $group: { _id: '$customerId', n: { $sum: 1 } } }]);
    expect(byCustomer.length).toBeGreaterThan(1);
  });

  it('$match, $group, $sort, $project', async () => {
    const rows = await Invoices.aggregate([
      { $match: { companyId: 1 } },
      { $group: { _id: '$customerId', cents: { $sum: '$totalCents' }, n: { $sum: 1 } } },
      { $sort: { cents: -1 } },
      { $project: { _id: 0, customerId: '$_id', cents: 1, n: 1 } },
    ]);
    expect(rows).toEqual([
      { cents: 1550, n: 2, customerId: 10 },
      { cents: 125, n: 1, customerId: 11 },
    ]);
  });

  it('$lookup and $unwind', async () => {
    const rows = await Invoices.aggregate([
      { $match: { companyId: 1, status: 'OPEN' } },
      { $lookup: { from: 'customers', localField: 'customerId', foreignField: '_id', as: 'customer' } },
      { $unwind: '$customer' },
      { $sort: { customerId: 1 } },
      { $project: { _id: 0, name: '$customer.name', total: 1 } },
    ]);
    expect(rows).toEqual([
      { total: '10.50', name: 'Acme' },
      { total: '1.25', name: 'Globex' },
    ]);
    const tags = await Invoices.aggregate([{ $unwind: '$tags' }, { $group: { _id: '$tags', n: { $sum: 1 } } }, { $sort: { _id: 1 } }]);
    expect(tags).toEqual([
      { _id: 'a', n: 2 },
      { _id: 'b', n: 1 },
      { _id: 'c', n: 1 },
    ]);
  });

  it('$facet, $count, $skip, $limit', async () => {
    const [facets] = await Invoices.aggregate([
      { $match: { companyId: 1 } },
      {
        $facet: {
          page: [{ $sort: { totalCents: 1 } }, { $skip: 1 }, { $limit: 1 }, { $project: { _id: 0, total: 1 } }],
          total: [{ $count: 'n' }],
        },
      },
    ]);
    expect(facets).toEqual({ page: [{ total: '5.00' }], total: [{ n: 3 }] });
  });

  it('walks an aggregation cursor in batches', async () => {
    const cursor = Invoices.collection.aggregate([{ $sort: { totalCents: 1 } }], { batchSize: 1 });
    const totals: string[] = [];
    for await (const d of cursor) totals.push(d.total as string);
    expect(totals).toEqual(['1.25', '5.00', '10.50', '99.00']);
  });

  it('does not alter stored documents through pipeline stages', async () => {
    await Invoices.aggregate([{ $set: { status: 'CHANGED' } }]);
    expect(await Invoices.countDocuments({ status: 'CHANGED' })).toBe(0);
  });
});
