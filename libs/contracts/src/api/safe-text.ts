import { z } from 'zod';

/**
 * Characters no text that reaches an e-mail, a PDF, an XML file or a file name may carry: C0 and C1 control
 * characters and DEL (CR/LF would start new lines of an e-mail or a CSV row), the bidirectional embeddings and
 * overrides U+202A–U+202E and isolates U+2066–U+2069 (`rechnung\u202Egpj.pdf` shows as `rechnungfdp.jpg`:
 * "Trojan Source"), the line and paragraph separators U+2028/U+2029 and the byte order mark U+FEFF.
 * The directional marks U+200E, U+200F and U+061C stay allowed: Arabic and Hebrew names need them and they
 * cannot reverse a run of letters. Zero-width joiners stay allowed too (Persian, Indic scripts, emoji).
 */
const FORBIDDEN = '\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029\\ufeff';
export const UNSAFE_TEXT_CHARS = new RegExp(`[${FORBIDDEN}]`, 'g');
/** The same for multi-line text: tab and line feed are allowed (CR LF and a lone CR are made LF first). */
export const UNSAFE_MULTILINE_CHARS = new RegExp(`[${FORBIDDEN.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b-\\u001f')}]`, 'g');

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first character text may not carry and where it is, or undefined. */
export function unsafeCharIn(text: string, multiLine = false): { char: string; codePoint: string; index: number } | undefined {
  const re = multiLine ? UNSAFE_MULTILINE_CHARS : UNSAFE_TEXT_CHARS;
  re.lastIndex = 0;
  const m = re.exec(text);
  re.lastIndex = 0;
  return m ? { char: m[0], codePoint: codePoint(m[0]), index: m.index } : undefined;
}

/** The text without the characters `unsafeCharIn` finds (for values that are cleaned, not refused: file names). */
export const stripUnsafeChars = (text: string, multiLine = false) =>
  text.replace(multiLine ? UNSAFE_MULTILINE_CHARS : UNSAFE_TEXT_CHARS, '');

const refinement =
  (multiLine: boolean) =>
  (value: string, ctx: z.RefinementCtx<string>): void => {
    const found = unsafeCharIn(value, multiLine);
    if (found)
      ctx.addIssue({
        code: 'custom',
        input: value,
        message: `must not contain control characters or bidirectional overrides (${found.codePoint} at position ${found.index + 1})${
          multiLine ? '; line feed and tab are allowed' : ''
        }`,
      });
  };

/**
 * A string schema that refuses what `unsafeCharIn` finds (400 naming the field, the character and its position).
 * Single-line by default; `multiLine` allows tab and line feed and turns CR LF and lone CRs into LF first.
 * The schema keeps its type (`.optional()`, `.nullable()` and the like still apply):
 * `safeText(z.string().trim().min(1).max(200))`.
 */
export function safeText<S extends z.ZodString>(schema: S, opts: { multiLine?: boolean } = {}): S {
  const multiLine = opts.multiLine === true;
  const normalised = multiLine ? schema.overwrite((s) => s.replace(/\r\n?/g, '\n') as z.output<S>) : schema;
  return normalised.superRefine(refinement(multiLine) as (value: z.output<S>, ctx: z.RefinementCtx<z.output<S>>) => void);
}

/** `safeText(z.string().trim().min(min).max(max))`: the usual single-line field. */
export const SafeLine = (max: number, min = 0) => safeText(z.string().trim().min(min).max(max));
/** `safeText(z.string().max(max), { multiLine: true })`: notes, descriptions, e-mail and payment texts. */
export const SafeMultiline = (max: number) => safeText(z.string().max(max), { multiLine: true });
