import { z } from 'zod';
import { dropNulls, parseInput } from './parse';
import { ConfigError, envVars, parseConfig } from './config';

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
