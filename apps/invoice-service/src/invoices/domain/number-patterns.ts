/** Numbering sequences: patterns with date placeholders and a sequence value (pure rules). */
export type DocumentType = 'invoice' | 'credit_note';
export type ResetPeriod = 'never' | 'yearly' | 'monthly';

export interface SequenceSettings {
  pattern: string;
  reset: ResetPeriod;
}

/**
 * Every company starts with these. A credit note corrects an invoice: RK (Rechnungskorrektur), not GS (Gutschrift,
 * which in § 14 (2) UStG terms is a self-billed invoice).
 */
export const DEFAULT_SEQUENCES: Record<DocumentType, SequenceSettings> = {
  invoice: { pattern: 'RE-{YYYY}-{SEQ:5}', reset: 'yearly' },
  credit_note: { pattern: 'RK-{YYYY}-{SEQ:5}', reset: 'yearly' },
};

/**
 * The credit notes' default pattern until RK: sequences that still have it move to the new default at start
 * (db/numbering.ts adoptCreditNotePrefixAcrossCompanies), keeping their value, so numbers already given never change and the
 * sequence goes on without a gap (GS-2026-00007, then RK-2026-00008).
 */
export const FORMER_CREDIT_NOTE_PATTERN = 'GS-{YYYY}-{SEQ:5}';

/** The period a sequence value belongs to: a new period starts again at 1 (UTC calendar, like invoice dates). */
export function periodKeyOf(reset: ResetPeriod, at: Date): string {
  const iso = at.toISOString();
  if (reset === 'yearly') return iso.slice(0, 4);
  if (reset === 'monthly') return iso.slice(0, 7);
  return 'all';
}

/** The number for sequence value `seq` at `at`: {YYYY} {YY} {MM} {DD} from the date, {SEQ} or {SEQ:n} zero-padded to n digits. */
export function formatNumber(pattern: string, at: Date, seq: number): string {
  const iso = at.toISOString();
  const parts: Record<string, string> = {
    YYYY: iso.slice(0, 4),
    YY: iso.slice(2, 4),
    MM: iso.slice(5, 7),
    DD: iso.slice(8, 10),
    SEQ: String(seq),
  };
  return pattern.replace(/\{(YYYY|YY|MM|DD|SEQ)(?::(\d+))?\}/g, (_all, name: string, width?: string) =>
    width ? parts[name]!.padStart(Number(width), '0') : parts[name]!,
  );
}

/** The fixed text of a pattern (placeholders removed): two sequences whose fixed texts are equal could produce the same number. */
export const fixedTextOf = (pattern: string) => pattern.replace(/\{[^}]*\}/g, '\u0000');

/**
 * A date placeholder the reset period does not cover lets numbers repeat across periods only if the SEQ
 * restarts while the date part stays the same; the reverse (a yearly reset without {YYYY}/{YY}) repeats
 * numbers every year. Answers the problem, or undefined.
 */
export function resetProblem(s: SequenceSettings): string | undefined {
  const hasYear = /\{YYYY\}|\{YY\}/.test(s.pattern);
  const hasMonth = /\{MM\}/.test(s.pattern);
  if (s.reset === 'yearly' && !hasYear) return 'a yearly reset needs {YYYY} or {YY} in the pattern, or numbers repeat every year';
  if (s.reset === 'monthly' && !(hasYear && hasMonth))
    return 'a monthly reset needs {YYYY} or {YY} and {MM} in the pattern, or numbers repeat';
  return undefined;
}
