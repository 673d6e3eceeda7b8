/** One fiscal year's part of an export period. */
export interface FiscalSlice {
  /** First day of the fiscal year (header field WJ-Beginn). */
  fiscalYearStart: string;
  /** The part of the requested period inside this fiscal year (header Datum vom / bis). */
  from: string;
  to: string;
}

const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

/** First day of the fiscal year that contains `date`, for a fiscal year starting in `startMonth` (1-12). */
export function fiscalYearStartOf(date: string, startMonth: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  return iso(m >= startMonth ? y : y - 1, startMonth, 1);
}

/** Last day of the fiscal year that begins on `start`. */
export function fiscalYearEndOf(start: string): string {
  const y = Number(start.slice(0, 4));
  const m = Number(start.slice(5, 7));
  return iso(y + 1, m, 0); // day 0 of the same month next year = the day before
}

/**
 * Splits [from, to] at fiscal-year boundaries: one EXTF file set per fiscal year, because Belegdatum has
 * no year and DATEV books a file into its header's fiscal year.
 */
export function splitByFiscalYear(from: string, to: string, startMonth: number): FiscalSlice[] {
  const slices: FiscalSlice[] = [];
  let cursor = from;
  while (cursor <= to) {
    const fyStart = fiscalYearStartOf(cursor, startMonth);
    const fyEnd = fiscalYearEndOf(fyStart);
    const end = fyEnd < to ? fyEnd : to;
    slices.push({ fiscalYearStart: fyStart, from: cursor, to: end });
    const next = new Date(`${end}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    cursor = next.toISOString().slice(0, 10);
  }
  return slices;
}
