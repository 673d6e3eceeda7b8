import { z } from 'zod';
import { dropNulls, parseInput } from './parse';
import { ConfigError, envVars, parseConfig } from './config';
import { MAX_LISTED_ERRORS, toProblem } from './problem';

describe('parseInput', () => {
  const schema = z.object({
    name: z.string(),
    email: z.string().email().optional(),
    nested: z.object({ a: z.number().optional() }).optional(),
  });

  it('treats null as not given (also for a key the schema does not know)', () => {
    expect(parseInput(schema, { name: 'x', email: null, is_active: null, nested: { a: null } })).toEqual({ name: 'x', nested: {} });
  });

  it('refuses unknown keys with 400 UNKNOWN_FIELD naming each (nested too) and the other problems after them', () => {
    try {
      parseInput(schema, { emial: 'a@b.example', nested: { b: 1 } });
      throw new Error('expected a 400');
    } catch (err) {
      expect(err).toMatchObject({ kind: 'invalid_data', options: { code: 'UNKNOWN_FIELD' } });
      expect((err as { options: { errors: unknown[] } }).options.errors).toEqual([
        { path: 'emial', in: 'body', message: 'unknown field; did you mean email?' },
        { path: 'nested.b', in: 'body', message: 'unknown field; known fields: a' },
        { path: 'name', in: 'body', message: 'required' },
      ]);
    }
  });

  it('keeps nulls inside arrays', () => {
    expect(dropNulls({ a: [null, 1] })).toEqual({ a: [null, 1] });
  });

  it('throws on a missing required field', () => {
    expect(() => parseInput(schema, { name: null })).toThrow();
  });
});

describe('parseConfig', () => {
  const schema = z.object({ PORT: envVars.port(3000), AMQP_URL: envVars.amqpUrl, FLAG: envVars.bool(false), NAME: z.string() });

  it('applies defaults and coerces', () => {
    expect(parseConfig(schema, { NAME: 'n', PORT: '81', FLAG: 'true' })).toMatchObject({ PORT: 81, FLAG: true, NAME: 'n' });
  });

  it('reports every problem on its own line', () => {
    try {
      parseConfig(schema, { PORT: 'abc', AMQP_URL: 'nope' });
      throw new Error('expected ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toHaveLength(3);
      expect(problems.join('\n')).toMatch(/PORT:.*\nAMQP_URL:.*\nNAME:.*\(not set\)/);
    }
  });
});

describe('an answer to a body with very many problems', () => {
  const schema = z.object({ customer_id: z.number().int(), note: z.string().optional(), tax_rate: z.string().optional() });
  const problemOf = (body: unknown) => {
    try {
      parseInput(schema, body);
    } catch (err) {
      return toProblem(err).problem;
    }
    throw new Error('accepted');
  };

  it('lists the first 20 of 50,000 unknown fields and counts them all, in a few KB', () => {
    const body: Record<string, unknown> = { customer_id: 1 };
    for (let i = 0; i < 50_000; i++) body[`field_${i}`] = i;
    body.tax_rat = '0.19';
    const p = problemOf(body);
    expect(p.code).toBe('UNKNOWN_FIELD');
    expect(p.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(p.errors_total).toBe(50_001);
    expect(p.detail).toContain('and 49981 more');
    expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThan(8 * 1024);
  });

  it('lists the first 20 of many invalid items too', () => {
    const list = z.object({ items: z.array(z.number()) });
    let p;
    try {
      parseInput(list, { items: Array.from({ length: 10_000 }, () => 'x') });
    } catch (err) {
      p = toProblem(err).problem;
    }
    expect(p?.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(p?.errors_total).toBe(10_000);
    expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThan(8 * 1024);
  });

  it('still names every unknown field and its suggestion when there are few', () => {
    const p = problemOf({ customer_id: 1, tax_rat: '0.19' });
    expect(p.errors).toEqual([{ path: 'tax_rat', in: 'body', message: 'unknown field; did you mean tax_rate?' }]);
    expect(p.errors_total).toBeUndefined();
  });
});
