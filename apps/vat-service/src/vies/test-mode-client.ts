import { viesTestAnswerOf } from '@inv/contracts';
import { isTransientViesFault } from '../domain/vies-faults';
import type { ViesResult } from '../domain/vies-result';
import type { ViesClient } from './vies-client';
import type { CheckVatIdDeps } from './check-vat-id';

/**
 * VIES for a test twin's checks (docs/test-mode.md): answers from the EU test service's documented numbers
 * (VIES_TEST_NUMBERS: DE999991005 valid, DE999992008 invalid, DE999993003 SERVICE_UNAVAILABLE, ...) and never asks
 * VIES. Any other number that passed the syntax check answers valid, as the development simulator does, so test
 * invoices to real customers' VAT IDs can be finalized without a lookup of a real trader.
 */
export function testModeViesClient(now: () => Date = () => new Date()): ViesClient {
  return {
    async checkVat(countryCode, vatNumber): Promise<ViesResult> {
      const answer = viesTestAnswerOf(vatNumber) ?? { kind: 'valid' as const, name: 'TEST MODE (VIES NOT ASKED)', address: '---' };
      if (answer.kind === 'fault') return { kind: 'fault', fault: answer.fault, transient: isTransientViesFault(answer.fault) };
      const requestDate = now().toISOString().slice(0, 10);
      return answer.kind === 'valid'
        ? { kind: 'valid', countryCode, vatNumber, requestDate, name: answer.name, address: answer.address }
        : { kind: 'invalid', countryCode, vatNumber, requestDate };
    },
  };
}

/**
 * The check of a test twin: the test numbers' client, one attempt (a test fault is answered at once), and no cache, so
 * test answers never stand in for real ones (nor real ones for test answers).
 */
export function testModeCheckDeps(now: () => Date = () => new Date()): CheckVatIdDeps {
  return {
    client: testModeViesClient(now),
    cache: { get: async () => null, set: async () => undefined, delete: async () => undefined, keyOf: () => '' },
    sleep: async () => undefined,
    now,
    retryPolicy: { maxAttempts: 1, backoffMs: [0], jitterRatio: 0 },
  };
}
