import { z } from 'zod';
import { InvalidDeliveryError, validateDelivery } from './consumer';
import { decodeEnvelope, encodeEnvelope, makeEnvelope, parseData } from './envelope';
import { describeRemoteError, MessageValidationError } from './errors';
import { decodeRpcReply, encodeRpcReply } from './rpc-reply';

const schemas = new Map<string, z.ZodType>([['invoice.finalized.v1', z.object({ invoiceId: z.number().int() })]]);

describe('envelope', () => {
  it('round-trips and fills id and occurredAt', () => {
    const env = makeEnvelope('invoice.finalized.v1', 'c1', { invoiceId: 7 });
    expect(env.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(env.occurredAt).toISOString()).toBe(env.occurredAt);
    expect(decodeEnvelope(encodeEnvelope(env))).toEqual({ ok: true, envelope: env });
  });

  it('keeps a given id and occurredAt, and requires a companyId', () => {
    expect(makeEnvelope('t', 'c', {}, 'fixed').id).toBe('fixed');
    expect(makeEnvelope('t', 'c', {}, undefined, '2026-01-02T03:04:05.000Z').occurredAt).toBe('2026-01-02T03:04:05.000Z');
    expect(() => makeEnvelope('t', 'c', {}, undefined, 'yesterday')).toThrow(/occurredAt/);
    expect(() => makeEnvelope('t', '', {})).toThrow(MessageValidationError);
  });

  it('refuses bodies that are not envelopes', () => {
    expect(decodeEnvelope(Buffer.from('nope'))).toMatchObject({ ok: false, error: expect.stringContaining('not JSON') });
    expect(decodeEnvelope(Buffer.from('{"id":"x"}'))).toMatchObject({ ok: false, error: expect.stringContaining('not an envelope') });
  });

  it('parseData returns the parsed output or throws with paths', () => {
    const s = z.object({ n: z.number(), tag: z.string().default('x') });
    expect(parseData(s, 't', { n: 1, extra: true })).toEqual({ n: 1, tag: 'x' });
    try {
      parseData(s, 't', { n: 'one' });
      throw new Error('should have thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(MessageValidationError);
      expect((err as MessageValidationError).issues[0].path).toBe('n');
    }
  });
});

describe('validateDelivery', () => {
  const content = (body: unknown): { content: Buffer } => ({ content: Buffer.from(JSON.stringify(body)) });
  const good = makeEnvelope('invoice.finalized.v1', 'c1', { invoiceId: 1 });

  it('accepts a known type with valid data', () => {
    expect(validateDelivery({ schemas }, content(good))).toEqual(good);
  });

  it('refuses unknown types, bad data and garbage', () => {
    expect(() => validateDelivery({ schemas }, content({ ...good, type: 'other.v1' }))).toThrow(/not consumed here/);
    expect(() => validateDelivery({ schemas }, content({ ...good, data: { invoiceId: 'x' } }))).toThrow(InvalidDeliveryError);
    expect(() => validateDelivery({ schemas }, { content: Buffer.from('{') })).toThrow(MessageValidationError);
  });
});

describe('RPC replies and remote errors', () => {
  it('round-trips replies and flags unreadable ones', () => {
    expect(decodeRpcReply(encodeRpcReply({ ok: true, data: { a: 1 } }))).toEqual({ ok: true, data: { a: 1 } });
    const err = { ok: false as const, error: { code: 'X', message: 'm', details: { used: 3 } } };
    expect(decodeRpcReply(encodeRpcReply(err))).toEqual(err);
    expect(decodeRpcReply(Buffer.from('garbage'))).toMatchObject({ ok: false, error: { code: 'RPC_BAD_REPLY' } });
  });

  it('describes handler errors by their code and details', () => {
    const e = Object.assign(new Error('limit'), { code: 'INVOICE_LIMIT_REACHED', details: { used: 3 } });
    expect(describeRemoteError(e)).toEqual({ code: 'INVOICE_LIMIT_REACHED', message: 'limit', details: { used: 3 } });
    expect(describeRemoteError(new Error('plain'))).toEqual({ code: 'INTERNAL', message: 'plain' });
    expect(describeRemoteError(Object.assign(new Error('n'), { code: 42 }))).toEqual({ code: 'INTERNAL', message: 'n' });
    expect(describeRemoteError('str')).toEqual({ code: 'INTERNAL', message: 'str' });
  });
});
