import fc from 'fast-check';
import { VIES_FAULTS } from '@inv/vies-simulator';
import {
  assertRetryPolicy,
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  nextStep,
  statusFromAttempts,
  type RetryPolicy,
} from './vat-check-decision';
import { isTransientViesFault } from './vies-faults';
import type { ViesResult } from './vies-result';

const answer = (kind: 'valid' | 'invalid'): ViesResult => ({ kind, countryCode: 'DE', vatNumber: '143454214', requestDate: '2026-01-02' });
const fault = (code: string): ViesResult => ({ kind: 'fault', fault: code, transient: isTransientViesFault(code) });
const noJitter: RetryPolicy = { maxAttempts: 4, backoffMs: [200, 1000, 3000], jitterRatio: 0 };

const TRANSIENT_CODES = [
  'SERVICE_UNAVAILABLE',
  'MS_UNAVAILABLE',
  'TIMEOUT',
  'GLOBAL_MAX_CONCURRENT_REQ',
  'GLOBAL_MAX_CONCURRENT_REQ_TIME',
  'MS_MAX_CONCURRENT_REQ',
  'MS_MAX_CONCURRENT_REQ_TIME',
  'CLIENT_TIMEOUT',
  'NETWORK_ERROR',
];
const PERMANENT_CODES = ['INVALID_INPUT', 'INVALID_REQUESTER_INFO', 'VAT_BLOCKED', 'IP_BLOCKED', 'SOMETHING_NEW'];

describe('isTransientViesFault', () => {
  it.each(TRANSIENT_CODES)('%s is transient', (code) => expect(isTransientViesFault(code)).toBe(true));
  it.each(PERMANENT_CODES)('%s is not transient', (code) => expect(isTransientViesFault(code)).toBe(false));
});

describe('statusFromAttempts', () => {
  it('takes valid and invalid answers as they are', () => {
    expect(statusFromAttempts([answer('valid')])).toBe('valid');
    expect(statusFromAttempts([answer('invalid')])).toBe('invalid');
    expect(statusFromAttempts([fault('MS_UNAVAILABLE'), answer('valid')])).toBe('valid');
  });

  it('treats INVALID_INPUT as invalid syntax', () => {
    expect(statusFromAttempts([fault(VIES_FAULTS.INVALID_INPUT)])).toBe('invalid');
  });

  it.each([...TRANSIENT_CODES, 'INVALID_REQUESTER_INFO', 'VAT_BLOCKED', 'IP_BLOCKED', 'SOMETHING_NEW'])(
    '%s ends unavailable, never invalid',
    (code) => expect(statusFromAttempts([fault(code), fault(code), fault(code)])).toBe('unavailable'),
  );

  it('is unavailable with no attempt at all', () => expect(statusFromAttempts([])).toBe('unavailable'));

  it('never reports invalid when the last attempt was a transient fault (property)', () => {
    const anyResult = fc.oneof(
      fc.constantFrom<ViesResult>(answer('valid'), answer('invalid')),
      fc.constantFrom(...TRANSIENT_CODES, ...PERMANENT_CODES).map(fault),
    );
    fc.assert(
      fc.property(fc.array(anyResult, { maxLength: 5 }), fc.constantFrom(...TRANSIENT_CODES), (before, code) => {
        expect(statusFromAttempts([...before, fault(code)])).toBe('unavailable');
      }),
    );
  });
});

describe('nextStep', () => {
  it('retries transient faults with the backoff schedule, then gives up as unavailable', () => {
    const attempts: ViesResult[] = [];
    const steps = [];
    for (let i = 0; i < 4; i++) {
      attempts.push(fault('SERVICE_UNAVAILABLE'));
      steps.push(nextStep(attempts, noJitter));
    }
    expect(steps).toEqual([
      { action: 'retry', delayMs: 200 },
      { action: 'retry', delayMs: 1000 },
      { action: 'retry', delayMs: 3000 },
      { action: 'done', status: 'unavailable' },
    ]);
  });

  it('does not retry permanent faults or answers', () => {
    expect(nextStep([fault('INVALID_INPUT')], noJitter)).toEqual({ action: 'done', status: 'invalid' });
    expect(nextStep([fault('VAT_BLOCKED')], noJitter)).toEqual({ action: 'done', status: 'unavailable' });
    expect(nextStep([answer('valid')], noJitter)).toEqual({ action: 'done', status: 'valid' });
    expect(nextStep([fault('TIMEOUT'), answer('invalid')], noJitter)).toEqual({ action: 'done', status: 'invalid' });
  });

  it('makes exactly one attempt with maxAttempts 1', () => {
    expect(nextStep([fault('TIMEOUT')], { ...noJitter, maxAttempts: 1 })).toEqual({ action: 'done', status: 'unavailable' });
  });

  it('never exceeds maxAttempts (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 12 }), (maxAttempts, made) => {
        const attempts = Array.from({ length: made }, () => fault('MS_UNAVAILABLE'));
        const step = nextStep(attempts, { ...noJitter, maxAttempts });
        expect(step.action === 'retry').toBe(made < maxAttempts);
      }),
    );
  });
});

describe('backoffDelay', () => {
  it('repeats the last entry beyond the schedule', () => {
    expect(backoffDelay(noJitter, 7)).toBe(3000);
  });

  it('stays within +-jitterRatio of the scheduled wait (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 60_000 }), { minLength: 1, maxLength: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (backoffMs, jitterRatio, retry, random01) => {
          const base = backoffMs[Math.min(retry, backoffMs.length) - 1]!;
          const delay = backoffDelay({ maxAttempts: 3, backoffMs, jitterRatio }, retry, random01);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(base * (1 - jitterRatio)));
          expect(delay).toBeLessThanOrEqual(Math.ceil(base * (1 + jitterRatio)));
        },
      ),
    );
  });

  it('is 0 with an empty schedule', () => expect(backoffDelay({ ...noJitter, backoffMs: [] }, 1)).toBe(0));
});

describe('assertRetryPolicy', () => {
  it('accepts the default', () => expect(assertRetryPolicy(DEFAULT_RETRY_POLICY)).toBe(DEFAULT_RETRY_POLICY));
  it.each([
    { ...noJitter, maxAttempts: 0 },
    { ...noJitter, maxAttempts: 1.5 },
    { ...noJitter, backoffMs: [-1] },
    { ...noJitter, jitterRatio: 2 },
  ])('rejects %j', (policy) => expect(() => assertRetryPolicy(policy)).toThrow(/invalid VIES retry policy/));
});
