import { z } from 'zod';

/** Integer path ids (customers, addresses, invoices, positions, downloads). */
export const IntId = z.coerce.number().int().positive().max(2 ** 31 - 1);
export const IsoDate = z.iso.date().meta({ description: 'calendar date YYYY-MM-DD', example: '2026-11-21' });
/** Job ids are strings (uuid). */
export const JobId = z.string().uuid();

export const Pagination = z.object({
  page: z.coerce.number().int().min(1).default(1).meta({ description: '1-based page number' }),
  limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: 'page size, at most 100' }),
});

export const Currency = z.literal('EUR');

/** JSON number carrying money or a quantity; converted to a decimal string at once, never computed as float. */
export const DecimalInput = (opts: { maxDecimals: number; min?: number; description?: string }) =>
  z
    .union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/)])
    .transform((v, ctx) => {
      // A JSON number arrives as a binary double; its shortest round-trip text is what the client wrote.
      const text = typeof v === 'number' ? String(v) : v;
      if (!/^-?\d+(\.\d+)?$/.test(text)) {
        ctx.addIssue({ code: 'custom', message: 'must be a plain decimal number' });
        return z.NEVER;
      }
      const decimals = text.split('.')[1]?.length ?? 0;
      if (decimals > opts.maxDecimals) {
        ctx.addIssue({ code: 'custom', message: `at most ${opts.maxDecimals} decimal places` });
        return z.NEVER;
      }
      if (opts.min !== undefined && Number(text) < opts.min) {
        ctx.addIssue({ code: 'custom', message: `must be at least ${opts.min}` });
        return z.NEVER;
      }
      return text;
    })
    .meta({ description: opts.description ?? 'decimal number', type: 'number' });

export const MessageResponse = z.object({ message: z.string() });
