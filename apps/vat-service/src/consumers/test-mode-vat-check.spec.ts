import { SIMULATOR_SCENARIO_VAT_IDS } from '@inv/vies-simulator';
import type { AppBus, EventOf } from '@inv/runtime';
import { testModeCheckDeps } from '../vies/test-mode-client';
import type { CheckVatIdDeps } from '../vies/check-vat-id';
import { onVatIdChanged } from './vat-id-changed';

/** A test twin's VAT checks answer from the documented test numbers and never reach VIES (docs/test-mode.md). */
describe('VAT checks in test mode', () => {
  const published: { companyId: string; data: Record<string, unknown> }[] = [];
  const bus = {
    publishEvent: async (_type: string, companyId: string, data: Record<string, unknown>) => void published.push({ companyId, data }),
  } as unknown as AppBus;
  let viesCalls = 0;
  const live: CheckVatIdDeps = {
    client: {
      checkVat: async (countryCode, vatNumber) => {
        viesCalls++;
        return { kind: 'valid', countryCode, vatNumber, requestDate: '2026-11-29', name: 'REAL TRADER' };
      },
    },
    cache: { get: async () => null, set: async () => undefined, delete: async () => undefined, keyOf: () => '' },
    sleep: async () => undefined,
    now: () => new Date(),
  };
  const deps = { bus, check: live, testCheck: testModeCheckDeps() };
  const event = (companyId: string, vatId: string) =>
    ({
      id: `e-${companyId}-${vatId}`,
      type: 'customer.vat-id-changed.v1',
      companyId,
      occurredAt: new Date().toISOString(),
      data: { customerId: 1, vatId },
    }) as unknown as EventOf<'customer.vat-id-changed.v1'>;

  it('answers the test numbers for a test twin without asking VIES', async () => {
    const cases: [string, string, string | undefined][] = [
      [SIMULATOR_SCENARIO_VAT_IDS.valid, 'valid', undefined],
      [SIMULATOR_SCENARIO_VAT_IDS.invalid, 'invalid', undefined],
      [SIMULATOR_SCENARIO_VAT_IDS.SERVICE_UNAVAILABLE, 'unavailable', 'SERVICE_UNAVAILABLE'],
      [SIMULATOR_SCENARIO_VAT_IDS.INVALID_INPUT, 'invalid', 'INVALID_INPUT'],
    ];
    for (const [vatId, status, fault] of cases) {
      await onVatIdChanged(deps, event('test~cmp_vat', vatId));
      expect(published.at(-1)).toMatchObject({ companyId: 'test~cmp_vat', data: { vatId, status, ...(fault ? { fault } : {}) } });
    }
    expect(published.at(0)?.data.name).toBe('VIES TEST TRADER');
    expect(viesCalls).toBe(0);
  });

  it('asks VIES for a live company', async () => {
    await onVatIdChanged(deps, event('cmp_vat', 'DE136695976'));
    expect(viesCalls).toBe(1);
    expect(published.at(-1)).toMatchObject({ companyId: 'cmp_vat', data: { status: 'valid', name: 'REAL TRADER' } });
  });
});
