import { checkMappingUpdate, debtorAccountOf, effectiveMappings, mismatchedAccounts, revenueAccountOf } from './mapping-rules';

describe('account mappings', () => {
  it('lists one row per treatment with the SKR03 and SKR04 defaults', () => {
    const rows = (chart: 'SKR03' | 'SKR04') => effectiveMappings(chart, 4, null).rows.map((r) => [r.treatment, r.rate, r.account]);
    expect(rows('SKR03')).toEqual([
      ['standard', '19', 8400],
      ['reduced', '7', 8300],
      ['reverse_charge', null, 8336],
      ['intra_community', null, 8125],
      ['export_outside_eu', null, 8120],
      ['exempt', null, 8100],
      ['outside_scope', null, 8338],
    ]);
    expect(rows('SKR04').map((r) => r[2])).toEqual([4400, 4300, 4336, 4125, 4120, 4100, 4338]);
    expect(effectiveMappings('SKR04', 4, null).receivablesAccount).toBe(1200);
    expect(effectiveMappings('SKR03', 5, null).rows[0]!.account).toBe(84000);
  });

  it('overlays saved rows, adds rows for other domestic rates and marks what differs from the default', () => {
    const m = effectiveMappings('SKR03', 4, {
      rows: [
        { treatment: 'standard', rate: '19', account: 8401 },
        { treatment: 'standard', rate: '16', account: 8410 },
      ],
    });
    expect(m.rows.filter((r) => r.treatment === 'standard').map((r) => [r.rate, r.account, r.isDefault])).toEqual([
      ['19', 8401, false],
      ['16', 8410, false],
    ]);
    expect(revenueAccountOf(m, 'S', '16')).toBe(8410);
    expect(revenueAccountOf(m, 'S', '16.00')).toBe(8410);
    expect(revenueAccountOf(m, 'S', '5')).toBeUndefined();
  });

  it('rejects unknown treatments, missing rates, wrong lengths and duplicates, naming each row', () => {
    const { problems } = checkMappingUpdate(
      {
        mappings: [
          { tax_treatment: 'bogus', account: 8400 },
          { tax_treatment: 'standard', account: 8400 },
          { tax_treatment: 'exempt', account: 810 },
          { tax_treatment: 'exempt', account: 8100 },
          { tax_treatment: 'exempt', account: 8101 },
        ],
        collective_debtor_account: 9999,
      },
      4,
    );
    expect(problems.map((p) => p.path)).toEqual([
      'mappings.0.tax_treatment',
      'mappings.1.tax_rate',
      'mappings.2.account',
      'mappings.4',
      'collective_debtor_account',
    ]);
  });

  it('derives debtor accounts from customer numbers, or uses the collective account', () => {
    const m = effectiveMappings('SKR03', 4, null);
    expect(debtorAccountOf(m, 10023)).toBe(10023);
    expect(debtorAccountOf(m, undefined)).toBe(10000);
    expect(debtorAccountOf(effectiveMappings('SKR03', 5, null), 10023)).toBe(100023);
    expect(
      debtorAccountOf(effectiveMappings('SKR03', 4, { rows: [], debtorAccounts: 'collective', collectiveDebtorAccount: 19999 }), 10023),
    ).toBe(19999);
    expect(mismatchedAccounts({ rows: [{ treatment: 'exempt', rate: null, account: 8100 }] }, 5)).toEqual(['exempt: 8100']);
  });
});
