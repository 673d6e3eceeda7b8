/**
 * The Basiszinssatz (base rate, § 247 BGB) in percent, from the day it is in force. Source: Deutsche Bundesbank,
 * "Basiszinssatz nach § 247 BGB" (https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820),
 * published half-yearly. This table MUST be extended every 1 January and 1 July with the newly published rate: a
 * date after the last entry uses the last entry's rate.
 */
export const BASE_RATES: readonly { from: string; percent: string }[] = [
  { from: '2023-01-01', percent: '1.62' },
  { from: '2023-07-01', percent: '3.12' },
  { from: '2024-01-01', percent: '3.62' },
  { from: '2024-07-01', percent: '3.37' },
  { from: '2025-01-01', percent: '2.27' },
  { from: '2025-07-01', percent: '1.27' },
  { from: '2026-01-01', percent: '1.27' },
];

/** The base rate in force on `day` (YYYY-MM-DD); before the first entry, the first entry's rate. */
export function baseRateOn(day: string): string {
  let rate = BASE_RATES[0]!.percent;
  for (const r of BASE_RATES) if (r.from <= day) rate = r.percent;
  return rate;
}
