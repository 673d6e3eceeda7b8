import { checkVatIdSyntax } from '@inv/contracts';
import { VIES_FAULTS } from './vies-faults';
import { EU_TEST_TABLE, SIMULATOR_SCENARIO_VAT_IDS, SLOW_VAT_NUMBER } from './vies-simulator';

/** The scenario VAT IDs are what end-to-end tests type into the API: they must pass our syntax check and mean what their name says. */
describe('SIMULATOR_SCENARIO_VAT_IDS', () => {
  const scenarios = Object.entries(SIMULATOR_SCENARIO_VAT_IDS);

  it.each(scenarios)('%s: %s passes the EU syntax check (so the API lets it through to VIES)', (_scenario, vatId) => {
    expect(checkVatIdSyntax(vatId)).toMatchObject({ ok: true, countryCode: 'DE' });
  });

  it.each(scenarios)('%s: %s embeds the EU test number whose answer the scenario names', (scenario, vatId) => {
    const match = /^DE99999(\d{3})\d$/.exec(vatId);
    expect(match).not.toBeNull();
    const entry = EU_TEST_TABLE[match![1]!];
    if (scenario === 'valid' || scenario === 'invalid') expect(entry).toMatchObject({ kind: scenario });
    else if (scenario === 'slow') expect(match![1]).toBe(SLOW_VAT_NUMBER);
    else expect(entry).toEqual({ kind: 'fault', fault: scenario });
  });

  it('covers every fault of the EU test table', () => {
    const tableFaults = Object.values(EU_TEST_TABLE).flatMap((entry) => (entry.kind === 'fault' ? [entry.fault] : []));
    expect(new Set(tableFaults)).toEqual(new Set(Object.keys(SIMULATOR_SCENARIO_VAT_IDS).filter((k) => k in VIES_FAULTS)));
  });

  it('uses only fault codes of the VIES vocabulary', () => {
    const codes = new Set<string>(Object.values(VIES_FAULTS));
    for (const entry of Object.values(EU_TEST_TABLE)) if (entry.kind === 'fault') expect(codes.has(entry.fault)).toBe(true);
  });
});
