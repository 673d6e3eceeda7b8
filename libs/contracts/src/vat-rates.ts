/**
 * VAT rates of the EU member states with the dates they apply, for the plausibility check of standard-rated
 * (category S) amounts: invoice validation (GET /invoice/{id}/validate) and received e-invoices (POST /inbound/validate,
 * POST /inbound/) warn about a rate the country does not have on the date of supply. Pure: no I/O.
 *
 * Sources: European Commission, DG TAXUD, "VAT rates applied in the Member States of the European Union",
 * situation at 1 January 2025 (taxud.c.1(2025)), for the rates in force then; for the rates in force for a limited
 * time or changed since, the member states' announcements as summarised there and in later editions:
 * DE 16 % / 5 % from 2020-07-01 to 2020-12-31 (§ 28 Abs. 1 und 2 UStG, Zweites Corona-Steuerhilfegesetz);
 * AT 5 % from 2020-07-01 to 2021-12-31; IE 21 % from 2020-09-01 to 2021-02-28; LU 16 / 13 / 7 % in 2023;
 * ES 5 % on energy and staple foods from 2022-07-01 to 2024-12-31; CZ 12 % replacing 15 % and 10 % from 2024-01-01;
 * EE 22 % from 2024-01-01, 24 % from 2025-07-01, 13 % (accommodation) and 9 % (press) from 2025-01-01;
 * FI 25.5 % from 2024-09-01 and 13.5 % instead of 14 % (food, restaurants) from 2026-01-01;
 * SK 23 %, 19 % and 5 % from 2025-01-01; RO 21 % and 11 % from 2025-08-01.
 *
 * The table covers supplies from 2020-01-01 on; for an earlier date, and for countries outside the EU, nothing is
 * checked. Zero rates (category Z) and the flat rates of § 24 UStG (German farmers) are not in the table.
 */

export type VatRateKind = 'standard' | 'reduced' | 'super-reduced' | 'parking' | 'regional';

export interface VatRate {
  /** Percent as a decimal string, as EN 16931 writes it (BT-119, BT-152): "19", "5.5", "13.5". */
  rate: string;
  kind: VatRateKind;
  /** First day (YYYY-MM-DD) the rate applies; absent: before the table's first date. */
  from?: string;
  /** Last day (YYYY-MM-DD) the rate applies; absent: still in force. */
  until?: string;
  /** Where a regional rate applies. */
  region?: string;
}

/** The first date the table covers (supplies before it are not checked). */
export const VAT_RATES_FROM = '2020-01-01';

const r = (rate: string, kind: VatRateKind, extra: Omit<VatRate, 'rate' | 'kind'> = {}): VatRate => ({ rate, kind, ...extra });

/** Per ISO 3166-1 alpha-2 country code of the member state (Greece: GR, as in addresses). */
export const EU_VAT_RATES: Readonly<Record<string, readonly VatRate[]>> = {
  AT: [
    r('20', 'standard'),
    r('13', 'reduced'),
    r('10', 'reduced'),
    r('5', 'reduced', { from: '2020-07-01', until: '2021-12-31' }),
    r('19', 'regional', { region: 'Jungholz, Mittelberg' }),
  ],
  BE: [r('21', 'standard'), r('12', 'reduced'), r('6', 'reduced')],
  BG: [r('20', 'standard'), r('9', 'reduced')],
  CY: [r('19', 'standard'), r('9', 'reduced'), r('5', 'reduced')],
  CZ: [
    r('21', 'standard'),
    r('15', 'reduced', { until: '2023-12-31' }),
    r('10', 'reduced', { until: '2023-12-31' }),
    r('12', 'reduced', { from: '2024-01-01' }),
  ],
  DE: [
    r('19', 'standard', { until: '2020-06-30' }),
    r('16', 'standard', { from: '2020-07-01', until: '2020-12-31' }),
    r('19', 'standard', { from: '2021-01-01' }),
    r('7', 'reduced', { until: '2020-06-30' }),
    r('5', 'reduced', { from: '2020-07-01', until: '2020-12-31' }),
    r('7', 'reduced', { from: '2021-01-01' }),
  ],
  DK: [r('25', 'standard')],
  EE: [
    r('20', 'standard', { until: '2023-12-31' }),
    r('22', 'standard', { from: '2024-01-01', until: '2025-06-30' }),
    r('24', 'standard', { from: '2025-07-01' }),
    r('9', 'reduced'),
    r('5', 'reduced', { until: '2024-12-31' }),
    r('13', 'reduced', { from: '2025-01-01' }),
  ],
  ES: [r('21', 'standard'), r('10', 'reduced'), r('5', 'reduced', { from: '2022-07-01', until: '2024-12-31' }), r('4', 'super-reduced')],
  FI: [
    r('24', 'standard', { until: '2024-08-31' }),
    r('25.5', 'standard', { from: '2024-09-01' }),
    r('14', 'reduced', { until: '2025-12-31' }),
    r('13.5', 'reduced', { from: '2026-01-01' }),
    r('10', 'reduced'),
  ],
  FR: [
    r('20', 'standard'),
    r('10', 'reduced'),
    r('5.5', 'reduced'),
    r('2.1', 'super-reduced'),
    r('13', 'regional', { region: 'Corsica' }),
    r('0.9', 'regional', { region: 'Corsica' }),
    r('8.5', 'regional', { region: 'Guadeloupe, Martinique, Réunion' }),
    r('1.75', 'regional', { region: 'Guadeloupe, Martinique, Réunion' }),
    r('1.05', 'regional', { region: 'Guadeloupe, Martinique, Réunion' }),
  ],
  GR: [
    r('24', 'standard'),
    r('13', 'reduced'),
    r('6', 'reduced'),
    r('17', 'regional', { region: 'Leros, Lesbos, Kos, Samos, Chios' }),
    r('9', 'regional', { region: 'Leros, Lesbos, Kos, Samos, Chios' }),
    r('4', 'regional', { region: 'Leros, Lesbos, Kos, Samos, Chios' }),
  ],
  HR: [r('25', 'standard'), r('13', 'reduced'), r('5', 'reduced')],
  HU: [r('27', 'standard'), r('18', 'reduced'), r('5', 'reduced')],
  IE: [
    r('23', 'standard', { until: '2020-08-31' }),
    r('21', 'standard', { from: '2020-09-01', until: '2021-02-28' }),
    r('23', 'standard', { from: '2021-03-01' }),
    r('13.5', 'reduced'),
    r('9', 'reduced'),
    r('4.8', 'super-reduced'),
  ],
  IT: [r('22', 'standard'), r('10', 'reduced'), r('5', 'reduced'), r('4', 'super-reduced')],
  LT: [r('21', 'standard'), r('9', 'reduced'), r('5', 'reduced')],
  LU: [
    r('17', 'standard', { until: '2022-12-31' }),
    r('16', 'standard', { from: '2023-01-01', until: '2023-12-31' }),
    r('17', 'standard', { from: '2024-01-01' }),
    r('8', 'reduced', { until: '2022-12-31' }),
    r('7', 'reduced', { from: '2023-01-01', until: '2023-12-31' }),
    r('8', 'reduced', { from: '2024-01-01' }),
    r('3', 'super-reduced'),
    r('14', 'parking', { until: '2022-12-31' }),
    r('13', 'parking', { from: '2023-01-01', until: '2023-12-31' }),
    r('14', 'parking', { from: '2024-01-01' }),
  ],
  LV: [r('21', 'standard'), r('12', 'reduced'), r('5', 'reduced')],
  MT: [r('18', 'standard'), r('7', 'reduced'), r('5', 'reduced')],
  NL: [r('21', 'standard'), r('9', 'reduced')],
  PL: [r('23', 'standard'), r('8', 'reduced'), r('5', 'reduced')],
  PT: [
    r('23', 'standard'),
    r('13', 'reduced'),
    r('6', 'reduced'),
    r('22', 'regional', { region: 'Madeira' }),
    r('12', 'regional', { region: 'Madeira' }),
    r('5', 'regional', { region: 'Madeira' }),
    r('16', 'regional', { region: 'Azores' }),
    r('9', 'regional', { region: 'Azores' }),
    r('4', 'regional', { region: 'Azores' }),
  ],
  RO: [
    r('19', 'standard', { until: '2025-07-31' }),
    r('21', 'standard', { from: '2025-08-01' }),
    r('9', 'reduced', { until: '2025-07-31' }),
    r('5', 'reduced', { until: '2025-07-31' }),
    r('11', 'reduced', { from: '2025-08-01' }),
  ],
  SE: [r('25', 'standard'), r('12', 'reduced'), r('6', 'reduced')],
  SI: [r('22', 'standard'), r('9.5', 'reduced'), r('5', 'reduced')],
  SK: [
    r('20', 'standard', { until: '2024-12-31' }),
    r('23', 'standard', { from: '2025-01-01' }),
    r('10', 'reduced', { until: '2024-12-31' }),
    r('19', 'reduced', { from: '2025-01-01' }),
    r('5', 'reduced', { from: '2025-01-01' }),
  ],
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** "EL" (the VAT prefix of Greece) is read as GR. */
const countryKey = (country: string) => (country.toUpperCase() === 'EL' ? 'GR' : country.toUpperCase());

/**
 * The rates of `country` in force on `date` (YYYY-MM-DD), standard first; undefined when the table does not cover
 * the country or the date (outside the EU, before VAT_RATES_FROM, not a date).
 */
export function vatRatesInForce(country: string, date: string): VatRate[] | undefined {
  const table = EU_VAT_RATES[countryKey(country)];
  if (!table || !ISO_DATE.test(date) || date < VAT_RATES_FROM) return undefined;
  const order: VatRateKind[] = ['standard', 'reduced', 'super-reduced', 'parking', 'regional'];
  return table
    .filter((v) => (!v.from || v.from <= date) && (!v.until || date <= v.until))
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || Number(b.rate) - Number(a.rate));
}

/** "19 % (standard), 7 % (reduced)": each rate once, with its kind (and region). */
export function describeVatRates(rates: readonly VatRate[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of rates) {
    const label = `${v.rate} % (${v.kind}${v.region ? `, ${v.region}` : ''})`;
    if (seen.has(label)) continue;
    seen.add(label);
    out.push(label);
  }
  return out.join(', ');
}

export type VatRateVerdict =
  | { verdict: 'in-force'; rates: VatRate[] }
  /** The country has no such rate on that date: `rates` are the ones in force then. */
  | { verdict: 'not-in-force'; rates: VatRate[] }
  /** Not covered (country outside the table, date before it, not a number): nothing to say. */
  | { verdict: 'unknown' };

/** Whether `ratePercent` ("16", "16.00", "5.5") is a rate of `country` on `date`. */
export function checkVatRate(country: string, date: string, ratePercent: string): VatRateVerdict {
  const rates = vatRatesInForce(country, date);
  const value = Number(ratePercent);
  if (!rates || !/^\d+(\.\d+)?$/.test(ratePercent.trim()) || !Number.isFinite(value)) return { verdict: 'unknown' };
  return rates.some((v) => Number(v.rate) === value) ? { verdict: 'in-force', rates } : { verdict: 'not-in-force', rates };
}

/** Whether the country is an EU member state the table covers (ISO code; EL is accepted for Greece). */
export const hasVatRateTable = (country: string) => Object.hasOwn(EU_VAT_RATES, countryKey(country));

/**
 * The plausibility finding for a standard-rated amount (category S) at `ratePercent` supplied on `date` by a seller
 * in `sellerCountry` to a buyer in `buyerCountry`: undefined when the rate is in force in the seller's country, or in
 * the buyer's EU country (a distance sale taxed where the buyer is, § 3c UStG / Art. 33 VAT Directive), or when the
 * table has nothing to say; else the message naming the rates in force.
 */
export function implausibleVatRate(input: {
  sellerCountry: string | undefined;
  buyerCountry: string | undefined;
  date: string;
  ratePercent: string;
}): string | undefined {
  const { sellerCountry, buyerCountry, date, ratePercent } = input;
  // a seller outside the table (outside the EU) charges no EU VAT this table could judge
  if (!sellerCountry || !hasVatRateTable(sellerCountry)) return undefined;
  const countries = [sellerCountry, buyerCountry]
    .filter((c): c is string => !!c && hasVatRateTable(c))
    .map(countryKey)
    .filter((c, i, all) => all.indexOf(c) === i);
  const verdicts = countries.map((c) => ({ country: c, v: checkVatRate(c, date, ratePercent) }));
  if (verdicts.length === 0 || verdicts.some((x) => x.v.verdict !== 'not-in-force')) return undefined;
  const inForce = verdicts.map((x) => `${x.country}: ${describeVatRates((x.v as { rates: VatRate[] }).rates)}`).join('; ');
  return `${ratePercent} % is not a VAT rate of ${countries.join(' or ')} on ${date}; the rates in force then are ${inForce}`;
}
