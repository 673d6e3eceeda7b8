import { z } from 'zod';
import { dropNulls, parseInput } from './parse';
import { ConfigError, envVars, parseConfig } from './config';

describe('parseInput', () => {
  const schema = z.object({
    name: z.string(),
    email: z.string().email().optional(),
    nested: z.object({ a: z.number().optional() }).optional(),
  });

  it('treats null as not given and ignores unknown keys', () => {
    expect(parseInput(schema, { name: 'x', email: null, is_active: true, nested: { a: null } })).toEqual({ name: 'x', nested: {} });
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
