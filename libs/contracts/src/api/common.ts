import { z } from 'zod';

/** Integer path ids (customers, addresses, invoices, positions, downloads). */
export const IntId = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);
export const IsoDate = z.iso.date().meta({ description: 'calendar date YYYY-MM-DD', example: '2026-11-21' });
/** Job ids are strings (uuid). */
export const JobId = z.string().uuid();

export const Pagination = z.object({
  page: z.coerce.number().int().min(1).default(1).meta({ description: '1-based page number' }),
  limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: 'page size, at most 100' }),
});

export const Currency = z.literal('EUR');

/**
 * Bounds of every number at the API (documented in the OpenAPI document and the README). They keep every
 * stored value, and every total of an invoice of at most 1,000 positions, exactly representable as a JSON
 * number (below 2^53 in cents), and they stop absurd inputs before they reach decimal arithmetic.
 */
export const NUMBER_BOUNDS = {
  /** Money amounts (line nets, discounts, fixed amounts): 999,999,999.99 at most. */
  maxAmount: '999999999.99',
  /** Quantities: 1,000,000,000 at most, 4 decimals. */
  maxQuantity: '1000000000',
  /** Unit prices: 999,999,999.9999 at most, 4 decimals. */
  maxUnitPrice: '999999999.9999',
  /** Longest numeric text accepted (digits, sign and point) before any parsing. */
  maxNumericLength: 32,
} as const;

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** Compares two plain non-exponent decimal strings without floats (both already match PLAIN_DECIMAL). */
function compareDecimal(a: string, b: string): number {
  const neg = (s: string) => s.startsWith('-');
  if (neg(a) !== neg(b)) return neg(a) ? -1 : 1;
  const sign = neg(a) ? -1 : 1;
  const [ai, af = ''] = a.replace('-', '').split('.');
  const [bi, bf = ''] = b.replace('-', '').split('.');
  const ia = ai.replace(/^0+(?=\d)/, '');
  const ib = bi.replace(/^0+(?=\d)/, '');
  if (ia.length !== ib.length) return sign * (ia.length < ib.length ? -1 : 1);
  const width = Math.max(af.length, bf.length);
  const x = ia + af.padEnd(width, '0');
  const y = ib + bf.padEnd(width, '0');
  return sign * (x < y ? -1 : x > y ? 1 : 0);
}

/**
 * JSON number (or plain decimal string) carrying money or a quantity; converted to a decimal string at once,
 * never computed as float. The text is length-checked before it is parsed, so a 100,000-digit "number"
 * costs nothing; `max` is the inclusive upper bound and is named in the error.
 */
export const DecimalInput = (opts: {
  maxDecimals: number;
  min?: number;
  max?: string;
  description?: string;
  /** The issue for a value above `max` (default "must be at most …"). */
  aboveMax?: (text: string) => { message: string; params?: Record<string, unknown> };
}) =>
  z
    .union([z.number(), z.string().max(NUMBER_BOUNDS.maxNumericLength, `at most ${NUMBER_BOUNDS.maxNumericLength} characters`)], {
      // JSON.parse turns 1e400 into Infinity, which z.number() refuses: say what is wanted instead of "Invalid input".
      // A missing value keeps the common "required" message.
      error: (iss) =>
        iss.code === 'invalid_union' && iss.input !== undefined
          ? `must be a finite plain decimal number${opts.max ? ` of at most ${opts.max}` : ''}`
          : undefined,
    })
    .transform((v, ctx) => {
      // A JSON number arrives as a binary double; its shortest round-trip text is what the client wrote.
      const text = typeof v === 'number' ? String(v) : v.trim();
      if (!PLAIN_DECIMAL.test(text)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a plain decimal number${opts.max ? ` of at most ${opts.max}` : ''} (no exponent)`,
        });
        return z.NEVER;
      }
      const decimals = text.split('.')[1]?.length ?? 0;
      if (decimals > opts.maxDecimals) {
        ctx.addIssue({ code: 'custom', message: `at most ${opts.maxDecimals} decimal places` });
        return z.NEVER;
      }
      if (opts.min !== undefined && compareDecimal(text, String(opts.min)) < 0) {
        ctx.addIssue({ code: 'custom', message: `must be at least ${opts.min}` });
        return z.NEVER;
      }
      if (opts.max !== undefined && compareDecimal(text, opts.max) > 0) {
        ctx.addIssue({ code: 'custom', ...(opts.aboveMax?.(text) ?? { message: `must be at most ${opts.max}` }) });
        return z.NEVER;
      }
      return text;
    })
    .meta({
      description: `${opts.description ?? 'decimal number'}${opts.max ? ` (at most ${opts.max}` : ''}${opts.max ? `, ${opts.maxDecimals} decimals)` : ''}`,
      type: 'number',
      ...(opts.max ? { maximum: Number(opts.max) } : {}),
      ...(opts.min !== undefined ? { minimum: opts.min } : {}),
    });

/** 19 -> 0.19 (a percentage written as a fraction), as a plain decimal string without float noise. */
function percentAsFraction(text: string): string {
  const [int, frac = ''] = text.replace(/^-/, '').split('.');
  const digits = int!.padStart(3, '0') + frac;
  const point = digits.length - frac.length - 2;
  const out = `${digits.slice(0, point)}.${digits.slice(point)}`.replace(/^0+(?=\d)/, '').replace(/\.?0+$/, '');
  return out === '' ? '0' : out;
}

/**
 * A VAT rate: a decimal fraction below 1 (0.19 = 19 %). A percentage (19, 7, 5.5) is refused with the fraction it
 * means (`suggestion` 0.19).
 */
export const TaxRateInput = (description = 'decimal fraction: 0.19 = 19 %') =>
  DecimalInput({
    maxDecimals: 4,
    min: 0,
    max: '0.9999',
    description,
    aboveMax: (text) => {
      if (compareDecimal(text, '100') > 0) return { message: 'must be a decimal fraction below 1 (0.19 = 19 %)' };
      const fraction = percentAsFraction(text);
      return {
        message: `must be a decimal fraction below 1, not a percentage: ${text} % is ${fraction}`,
        params: { suggestion: Number(fraction) },
      };
    },
  });

export const MessageResponse = z.object({ message: z.string() });
