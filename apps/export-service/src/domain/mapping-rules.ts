import { MAPPING_TREATMENTS, type MappingTreatment } from '@inv/contracts';
import { toDecimal } from '@inv/money';

export type Chart = 'SKR03' | 'SKR04';

/** A stored or default row: rate in percent as a decimal string ("19") for standard/reduced, null otherwise. */
export interface MappingRow {
  treatment: MappingTreatment;
  rate: string | null;
  account: number;
}

export interface MappingSettings {
  rows: MappingRow[];
  receivablesAccount?: number;
  debtorAccounts?: 'per_customer' | 'collective';
  collectiveDebtorAccount?: number;
}

const LABELS: Record<MappingTreatment, string> = {
  standard: 'Domestic revenue, standard rate',
  reduced: 'Domestic revenue, reduced rate',
  reverse_charge: 'EU B2B services, reverse charge (AE)',
  intra_community: 'Intra-community supply of goods (K)',
  export_outside_eu: 'Export to a third country (G)',
  exempt: 'Tax-exempt revenue (E, and zero-rated Z)',
  outside_scope: 'Services taxable in a third country / outside scope (O)',
};

/** SKR03/SKR04 revenue accounts from the facts file: automatic accounts, so no BU key on any row. */
const DEFAULTS: Record<Chart, { rows: MappingRow[]; receivables: number }> = {
  SKR03: {
    rows: [
      { treatment: 'standard', rate: '19', account: 8400 },
      { treatment: 'reduced', rate: '7', account: 8300 },
      { treatment: 'reverse_charge', rate: null, account: 8336 },
      { treatment: 'intra_community', rate: null, account: 8125 },
      { treatment: 'export_outside_eu', rate: null, account: 8120 },
      { treatment: 'exempt', rate: null, account: 8100 },
      { treatment: 'outside_scope', rate: null, account: 8338 },
    ],
    receivables: 1400,
  },
  SKR04: {
    rows: [
      { treatment: 'standard', rate: '19', account: 4400 },
      { treatment: 'reduced', rate: '7', account: 4300 },
      { treatment: 'reverse_charge', rate: null, account: 4336 },
      { treatment: 'intra_community', rate: null, account: 4125 },
      { treatment: 'export_outside_eu', rate: null, account: 4120 },
      { treatment: 'exempt', rate: null, account: 4100 },
      { treatment: 'outside_scope', rate: null, account: 4338 },
    ],
    receivables: 1200,
  },
};

const RATED: readonly MappingTreatment[] = ['standard', 'reduced'];
export const isRated = (t: MappingTreatment) => RATED.includes(t);

/** A 4-digit chart account at a longer account length: DATEV pads general-ledger accounts on the right (8400 -> 84000). */
export const scaleAccount = (account4: number, length: number) => account4 * 10 ** (length - 4);

/** Debtor accounts have one digit more than general-ledger accounts: 10^L .. 7*10^L - 1 (creditors above). */
export const debtorRange = (length: number) => ({ min: 10 ** length, max: 7 * 10 ** length - 1 });

export const rowKey = (treatment: string, rate: string | null) => `${treatment}|${rate ?? ''}`;
export const normalizeRate = (rate: number | string) =>
  toDecimal(rate)
    .times(typeof rate === 'number' ? 100 : 1)
    .toFixed();

export interface EffectiveMappings {
  chart: Chart;
  accountLength: number;
  rows: (MappingRow & { label: string; isDefault: boolean })[];
  receivablesAccount: number;
  debtorAccounts: 'per_customer' | 'collective';
  collectiveDebtorAccount: number;
}

/** The defaults of the chart at the account length, overlaid with the company's saved rows and settings. */
export function effectiveMappings(chart: Chart, accountLength: number, saved: MappingSettings | null): EffectiveMappings {
  const defaults = DEFAULTS[chart];
  const byKey = new Map<string, MappingRow & { label: string; isDefault: boolean }>();
  for (const d of defaults.rows) {
    byKey.set(rowKey(d.treatment, d.rate), {
      ...d,
      account: scaleAccount(d.account, accountLength),
      label: LABELS[d.treatment],
      isDefault: true,
    });
  }
  for (const r of saved?.rows ?? []) {
    const key = rowKey(r.treatment, r.rate);
    const def = byKey.get(key);
    byKey.set(key, { ...r, label: LABELS[r.treatment], isDefault: def !== undefined && def.account === r.account });
  }
  const order = (t: MappingTreatment) => MAPPING_TREATMENTS.indexOf(t);
  const rows = [...byKey.values()].sort((a, b) => order(a.treatment) - order(b.treatment) || Number(b.rate ?? 0) - Number(a.rate ?? 0));
  return {
    chart,
    accountLength,
    rows,
    receivablesAccount: saved?.receivablesAccount ?? scaleAccount(defaults.receivables, accountLength),
    debtorAccounts: saved?.debtorAccounts ?? 'per_customer',
    collectiveDebtorAccount: saved?.collectiveDebtorAccount ?? debtorRange(accountLength).min,
  };
}

export interface FieldProblem {
  path: string;
  message: string;
}

/** Checks a batch of rows and settings against the account length; any problem rejects the whole batch. */
export function checkMappingUpdate(
  input: {
    mappings?: { tax_treatment: string; tax_rate?: number | null; account: number }[];
    receivables_account?: number;
    collective_debtor_account?: number;
  },
  accountLength: number,
): { rows: MappingRow[]; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const rows: MappingRow[] = [];
  const seen = new Set<string>();
  (input.mappings ?? []).forEach((m, i) => {
    const path = `mappings.${i}`;
    if (!(MAPPING_TREATMENTS as readonly string[]).includes(m.tax_treatment)) {
      problems.push({
        path: `${path}.tax_treatment`,
        message: `unknown tax treatment "${m.tax_treatment}"; one of ${MAPPING_TREATMENTS.join(', ')}`,
      });
      return;
    }
    const treatment = m.tax_treatment as MappingTreatment;
    let rate: string | null = null;
    if (isRated(treatment)) {
      if (m.tax_rate === undefined || m.tax_rate === null || m.tax_rate <= 0) {
        problems.push({ path: `${path}.tax_rate`, message: `a ${treatment} row needs its tax_rate as a fraction above 0, e.g. 0.19` });
        return;
      }
      rate = normalizeRate(m.tax_rate);
    }
    if (String(m.account).length !== accountLength) {
      problems.push({
        path: `${path}.account`,
        message: `account ${m.account} has ${String(m.account).length} digits; the configured account_length is ${accountLength}`,
      });
      return;
    }
    const key = rowKey(treatment, rate);
    if (seen.has(key)) {
      problems.push({ path, message: `${treatment}${rate ? ` at ${rate} %` : ''} appears twice in this batch` });
      return;
    }
    seen.add(key);
    rows.push({ treatment, rate, account: m.account });
  });
  if (input.receivables_account !== undefined && String(input.receivables_account).length !== accountLength) {
    problems.push({
      path: 'receivables_account',
      message: `account ${input.receivables_account} has ${String(input.receivables_account).length} digits; the configured account_length is ${accountLength}`,
    });
  }
  if (input.collective_debtor_account !== undefined) {
    const { min, max } = debtorRange(accountLength);
    if (input.collective_debtor_account < min || input.collective_debtor_account > max) {
      problems.push({
        path: 'collective_debtor_account',
        message: `a debtor account at account_length ${accountLength} lies in ${min}-${max}`,
      });
    }
  }
  return { rows, problems };
}

/** Saved rows or settings that no longer fit a new account length (the config change is refused). */
export function mismatchedAccounts(saved: MappingSettings | null, accountLength: number): string[] {
  if (!saved) return [];
  const bad = saved.rows
    .filter((r) => String(r.account).length !== accountLength)
    .map((r) => `${r.treatment}${r.rate ? ` ${r.rate} %` : ''}: ${r.account}`);
  if (saved.receivablesAccount !== undefined && String(saved.receivablesAccount).length !== accountLength)
    bad.push(`receivables_account: ${saved.receivablesAccount}`);
  const { min, max } = debtorRange(accountLength);
  const c = saved.collectiveDebtorAccount;
  if (c !== undefined && (c < min || c > max)) bad.push(`collective_debtor_account: ${c}`);
  return bad;
}

/**
 * The revenue account (Gegenkonto) of one VAT group: standard-rated (S) by rate among the standard and
 * reduced rows, zero-rated (Z) and exempt (E) on the exempt row, the others by their category.
 */
export function revenueAccountOf(m: EffectiveMappings, category: string, rate: string): number | undefined {
  const byTreatment = (t: MappingTreatment) => m.rows.find((r) => r.treatment === t)?.account;
  switch (category) {
    case 'S': {
      const pct = toDecimal(rate).toFixed();
      return m.rows.find((r) => isRated(r.treatment) && r.rate !== null && toDecimal(r.rate).toFixed() === pct)?.account;
    }
    case 'Z':
    case 'E':
      return byTreatment('exempt');
    case 'AE':
      return byTreatment('reverse_charge');
    case 'K':
      return byTreatment('intra_community');
    case 'G':
      return byTreatment('export_outside_eu');
    case 'O':
      return byTreatment('outside_scope');
    default:
      return undefined;
  }
}

/**
 * The debtor account (Konto) of a customer: in `per_customer` mode derived from the customer number
 * (10000-69999): the number itself at account length 4, 10^L + (number - 10000) above (10023 -> 100023
 * at length 5). Without a customer number, or in `collective` mode, the collective debtor account.
 */
export function debtorAccountOf(m: EffectiveMappings, customerNumber: number | undefined): number {
  if (m.debtorAccounts === 'collective' || customerNumber === undefined) return m.collectiveDebtorAccount;
  const { min, max } = debtorRange(m.accountLength);
  const account = min + (customerNumber - 10_000);
  return account >= min && account <= max ? account : m.collectiveDebtorAccount;
}
