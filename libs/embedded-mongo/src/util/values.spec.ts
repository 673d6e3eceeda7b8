import { Decimal128, Long, ObjectId } from 'bson';
import fc from 'fast-check';
import { cloneDeep, formatForMessage, keyString, valueAtPath, valuesAtPath } from './values';

describe('keyString', () => {
  it('gives equal numbers the same key whatever their BSON type, and different values different keys', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (n) => {
        expect(keyString(n)).toBe(keyString(Long.fromNumber(n)));
        expect(keyString(n)).not.toBe(keyString(String(n)));
      }),
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(keyString(a) === keyString(b)).toBe(a === b);
      }),
    );
    expect(keyString(-0)).toBe(keyString(0));
  });

  it('treats null and missing as the same key, and distinguishes types', () => {
    expect(keyString(null)).toBe(keyString(undefined));
    const oid = new ObjectId();
    expect(keyString(oid)).toBe(keyString(new ObjectId(oid.toHexString())));
    expect(keyString(oid)).not.toBe(keyString(oid.toHexString()));
    expect(keyString(new Date(5))).not.toBe(keyString(5));
    expect(keyString(true)).not.toBe(keyString('true'));
    expect(keyString({ a: 1, b: 2 })).not.toBe(keyString({ b: 2, a: 1 })); // field order matters, as in MongoDB
    expect(keyString(Decimal128.fromString('1.5'))).toBe(keyString(Decimal128.fromString('1.5')));
  });
});

describe('valuesAtPath', () => {
  it('descends into arrays like a multikey index', () => {
    const doc = { a: [{ b: 1 }, { b: [2, 3] }, { c: 4 }], x: { y: 'z' }, e: [] };
    expect(valuesAtPath(doc, 'a.b')).toEqual([1, 2, 3, undefined]);
    expect(valuesAtPath(doc, 'x.y')).toEqual(['z']);
    expect(valuesAtPath(doc, 'a.1.b')).toEqual([2, 3]);
    expect(valuesAtPath(doc, 'missing.path')).toEqual([undefined]);
    expect(valuesAtPath(doc, 'e')).toEqual([undefined]);
    expect(valueAtPath(doc, 'x.y')).toBe('z');
    expect(valueAtPath(doc, 'x.y.z')).toBeUndefined();
  });
});

describe('cloneDeep', () => {
  it('copies plain structure, keeps bson values, and is independent of the original', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const copy = cloneDeep(v);
        expect(copy).toEqual(v);
      }),
    );
    // a field named "__proto__" (fast-check found it: assigning it set the copy's prototype and lost the field)
    const proto = JSON.parse('{"__proto__": 0, "a": {"__proto__": {"x": 1}}}') as Record<string, unknown>;
    const protoCopy = cloneDeep(proto);
    expect(Object.keys(protoCopy)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(protoCopy)).toBe(Object.prototype);
    expect(protoCopy).toEqual(proto);
    const oid = new ObjectId();
    const original = { _id: oid, when: new Date(1), nested: { list: [1, { k: 'v' }] } };
    const copy = cloneDeep(original);
    expect(copy._id).toBe(oid);
    expect(copy.when).not.toBe(original.when);
    (copy.nested.list[1] as { k: string }).k = 'changed';
    expect((original.nested.list[1] as { k: string }).k).toBe('v');
  });
});

describe('formatForMessage', () => {
  it('prints values as the server does in E11000 messages', () => {
    expect(formatForMessage('a@x')).toBe('"a@x"');
    expect(formatForMessage(5)).toBe('5');
    expect(formatForMessage(null)).toBe('null');
    expect(formatForMessage(new ObjectId('65a000000000000000000001'))).toBe("ObjectId('65a000000000000000000001')");
    expect(formatForMessage({ a: 1 })).toBe('{ a: 1 }');
  });
});
