/**
 * The standard VAT rate of a country on a date (pure data, no I/O): what tells a VAT breakdown row at the standard
 * rate from one at a reduced rate, whatever the position's tax treatment says. Germany's reduced rates are listed
 * too (a German rate that is neither is no rate in force); elsewhere any rate above zero and below the standard
 * rate is a reduced one (super-reduced and parking rates included).
 *
 * Periods are [from, to] in YYYY-MM-DD, inclusive, `to` absent for the rate in force today. Sources: the
 * European Commission's "VAT rates applied in the Member States" and the national laws (DE: § 12 UStG, the
 * temporary 16 % / 5 % of § 28 (1), (2) UStG from 1 July to 31 December 2020).
 */
export interface RatePeriod {
  from: string;
  to?: string;
  /** Percent, as printed ("19", "25.5"). */
  standard: string;
  /** All reduced rates in force, when the table knows them exactly. */
  reduced?: readonly string[];
}

const P = (from: string, standard: string, to?: string, reduced?: readonly string[]): RatePeriod => ({ from, to, standard, reduced });

export const STANDARD_RATES: Readonly<Record<string, readonly RatePeriod[]>> = {
  DE: [
    P('1998-04-01', '16', '2006-12-31', ['7']),
    P('2007-01-01', '19', '2020-06-30', ['7']),
    P('2020-07-01', '16', '2020-12-31', ['5']),
    P('2021-01-01', '19', undefined, ['7']),
  ],
  AT: [P('1984-01-01', '20')],
  BE: [P('1996-01-01', '21')],
  BG: [P('1999-01-01', '20')],
  HR: [P('2012-03-01', '25')],
  CY: [P('2014-01-13', '19')],
  CZ: [P('2013-01-01', '21')],
  DK: [P('1992-01-01', '25')],
  EE: [P('2009-07-01', '20', '2023-12-31'), P('2024-01-01', '22', '2025-06-30'), P('2025-07-01', '24')],
  FI: [P('2013-01-01', '24', '2024-08-31'), P('2024-09-01', '25.5')],
  FR: [P('2014-01-01', '20')],
  GR: [P('2016-06-01', '24')],
  HU: [P('2012-01-01', '27')],
  IE: [P('2012-01-01', '23', '2020-08-31'), P('2020-09-01', '21', '2021-02-28'), P('2021-03-01', '23')],
  IT: [P('2013-10-01', '22')],
  LV: [P('2012-07-01', '21')],
  LT: [P('2009-09-01', '21')],
  LU: [P('2015-01-01', '17', '2022-12-31'), P('2023-01-01', '16', '2023-12-31'), P('2024-01-01', '17')],
  MT: [P('2004-01-01', '18')],
  NL: [P('2012-10-01', '21')],
  PL: [P('2011-01-01', '23')],
  PT: [P('2011-07-01', '23')],
  RO: [P('2017-01-01', '19', '2025-07-31'), P('2025-08-01', '21')],
  SK: [P('2011-01-01', '20', '2024-12-31'), P('2025-01-01', '23')],
  SI: [P('2013-07-01', '22')],
  ES: [P('2012-09-01', '21')],
  SE: [P('1990-07-01', '25')],
  // outside the EU, sellers our customers buy from
  GB: [P('2011-01-04', '20')],
  NO: [P('2005-01-01', '25')],
  CH: [P('2018-01-01', '7.7', '2023-12-31'), P('2024-01-01', '8.1')],
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The rates in force in `country` (ISO 3166-1 alpha-2; Greece also as EL) on `date`, or undefined when unknown. */
export function ratesInForce(country: string | undefined, date: string | undefined): RatePeriod | undefined {
  if (!country || !date || !ISO_DATE.test(date)) return undefined;
  const code = country.trim().toUpperCase();
  const periods = STANDARD_RATES[code === 'EL' ? 'GR' : code];
  return periods?.find((p) => p.from <= date && (p.to === undefined || date <= p.to));
}

/** "7", "7.0" and "07.00" are one rate; compared as numbers in hundredths (rates have at most 2 decimals in use). */
export const rateKey = (rate: string): number => Math.round(Number(rate.trim()) * 100);

/**
 * What an S (standard-category) rate is in `country` on `date`: the standard rate, a reduced rate, a rate not in
 * force there (Germany: 16 % in 2026), or unknown (no table for that country or date).
 */
export function rateKind(
  rate: string,
  country: string | undefined,
  date: string | undefined,
): 'standard' | 'reduced' | 'notInForce' | 'unknown' {
  const inForce = ratesInForce(country, date);
  const r = rateKey(rate);
  if (!inForce || !Number.isFinite(r)) return 'unknown';
  if (r === rateKey(inForce.standard)) return 'standard';
  if (inForce.reduced) return inForce.reduced.some((x) => rateKey(x) === r) ? 'reduced' : 'notInForce';
  return r > 0 && r < rateKey(inForce.standard) ? 'reduced' : 'notInForce';
}
