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
  /** Payments: the bank account money arrives on (Konto of a payment row). */
  bankAccount?: number;
  /** Skonto granted: per VAT rate of the invoice (standard 19 %, reduced 7 %) and for untaxed revenue. */
  discountAccountStandard?: number;
  discountAccountReduced?: number;
  discountAccountUntaxed?: number;
  /** Received invoices: the expense account (Gegenkonto of a supplier row). */
  expenseAccount?: number;
}

/** The settings of payments, Skonto and received invoices, as PUT /acctexp/mappings names them. */
export const EXTRA_ACCOUNT_FIELDS = [
  ['bankAccount', 'bank_account'],
  ['discountAccountStandard', 'discount_account_standard'],
  ['discountAccountReduced', 'discount_account_reduced'],
  ['discountAccountUntaxed', 'discount_account_untaxed'],
  ['expenseAccount', 'expense_account'],
] as const;
export type ExtraAccountField = (typeof EXTRA_ACCOUNT_FIELDS)[number][0];

const LABELS: Record<MappingTreatment, string> = {
  standard: 'Domestic revenue, standard rate',
  reduced: 'Domestic revenue, reduced rate',
  reverse_charge: 'EU B2B services, reverse charge (AE)',
  intra_community: 'Intra-community supply of goods (K)',
  export_outside_eu: 'Export to a third country (G)',
  exempt: 'Tax-exempt revenue (E, and zero-rated Z)',
  outside_scope: 'Services taxable in a third country / outside scope (O)',
};

/**
 * SKR03/SKR04 revenue accounts from the facts file: automatic accounts, so no BU key on any row. Besides them (not in
 * the facts file; standard DATEV charts): the bank account (SKR03 1200 Bank, SKR04 1800 Bank), the granted-Skonto
 * accounts (SKR03 8736 / 8731 'Gewährte Skonti 19 % / 7 % USt' and 8730 'Gewährte Skonti'; SKR04 4736 / 4731 / 4730),
 * which are automatic accounts too (DATEV corrects the VAT itself, so their rows carry no BU key either), and the
 * expense account of received invoices (SKR03 4900, SKR04 6300 'Sonstige betriebliche Aufwendungen'), which is not
 * automatic: its rows carry the input-tax BU key of their rate (9 = 19 %, 8 = 7 % Vorsteuer).
 */
const DEFAULTS: Record<Chart, { rows: MappingRow[]; receivables: number; extra: Record<ExtraAccountField, number> }> = {
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
    extra: {
      bankAccount: 1200,
      discountAccountStandard: 8736,
      discountAccountReduced: 8731,
      discountAccountUntaxed: 8730,
      expenseAccount: 4900,
    },
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
    extra: {
      bankAccount: 1800,
      discountAccountStandard: 4736,
      discountAccountReduced: 4731,
      discountAccountUntaxed: 4730,
      expenseAccount: 6300,
    },
  },
};

const RATED: readonly MappingTreatment[] = ['standard', 'reduced'];
export const isRated = (t: MappingTreatment) => RATED.includes(t);

/** A 4-digit chart account at a longer account length: DATEV pads general-ledger accounts on the right (8400 -> 84000). */
export const scaleAccount = (account4: number, length: number) => account4 * 10 ** (length - 4);

/** Debtor accounts have one digit more than general-ledger accounts: 10^L .. 7*10^L - 1 (creditors above). */
export const debtorRange = (length: number) => ({ min: 10 ** length, max: 7 * 10 ** length - 1 });
/** Creditor accounts: 7*10^L .. 10^(L+1) - 1 (length 4: 70000-99999). */
export const creditorRange = (length: number) => ({ min: 7 * 10 ** length, max: 10 ** (length + 1) - 1 });

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
  /** Chart defaults scaled to the account length, overlaid with the saved ones. */
  bankAccount: number;
  discountAccountStandard: number;
  discountAccountReduced: number;
  discountAccountUntaxed: number;
  expenseAccount: number;
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
    bankAccount: saved?.bankAccount ?? scaleAccount(defaults.extra.bankAccount, accountLength),
    discountAccountStandard: saved?.discountAccountStandard ?? scaleAccount(defaults.extra.discountAccountStandard, accountLength),
    discountAccountReduced: saved?.discountAccountReduced ?? scaleAccount(defaults.extra.discountAccountReduced, accountLength),
    discountAccountUntaxed: saved?.discountAccountUntaxed ?? scaleAccount(defaults.extra.discountAccountUntaxed, accountLength),
    expenseAccount: saved?.expenseAccount ?? scaleAccount(defaults.extra.expenseAccount, accountLength),
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
    bank_account?: number;
    discount_account_standard?: number;
    discount_account_reduced?: number;
    discount_account_untaxed?: number;
    expense_account?: number;
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
  for (const [, field] of EXTRA_ACCOUNT_FIELDS) {
    const account = input[field];
    if (account !== undefined && String(account).length !== accountLength)
      problems.push({
        path: field,
        message: `account ${account} has ${String(account).length} digits; the configured account_length is ${accountLength}`,
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
  for (const [key, field] of EXTRA_ACCOUNT_FIELDS) {
    const account = saved[key];
    if (account !== undefined && String(account).length !== accountLength) bad.push(`${field}: ${account}`);
  }
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

/**
 * The creditor account (Konto) of a supplier of received invoices, analogous to debtors: 7*10^L + the supplier's id
 * (supplier 1 -> 70001 at account length 4); without a supplier id, or beyond the range, the collective creditor account
 * 7*10^L (70000).
 */
export function creditorAccountOf(m: EffectiveMappings, supplierId: number | undefined): number {
  const { min, max } = creditorRange(m.accountLength);
  if (supplierId === undefined || supplierId < 1) return min;
  const account = min + supplierId;
  return account <= max ? account : min;
}

/** The granted-Skonto account of a VAT group of the invoice: by rate for standard-rated groups, else the untaxed one. */
export function discountAccountOf(m: EffectiveMappings, category: string, rate: string): number | undefined {
  if (category !== 'S') return m.discountAccountUntaxed;
  const pct = toDecimal(rate).toFixed();
  if (pct === '19') return m.discountAccountStandard;
  if (pct === '7') return m.discountAccountReduced;
  return undefined;
}

/**
 * The input-tax BU key of a received invoice's VAT group on the (non-automatic) expense account: 9 = 19 % Vorsteuer,
 * 8 = 7 % Vorsteuer (DATEV's standard keys). Other categories (reverse charge, exempt, ...) get no key: the row books
 * the gross amount without input tax.
 */
export function inputTaxKeyOf(category: string, rate: string): string {
  if (category !== 'S') return '';
  const pct = toDecimal(rate).toFixed();
  return pct === '19' ? '9' : pct === '7' ? '8' : '';
}
