import { z } from 'zod';

/** Field shapes the message contracts share (not exported from the package). */
export const Dec = z.string().regex(/^-?\d+(\.\d+)?$/);
export const DocumentFormat = z.enum(['PDF', 'ZUGFERD', 'XRECHNUNG', 'PEPPOL', 'FACTURAPA', 'FACTURAE']);
export const StoredObject = z.object({ key: z.string(), filename: z.string(), contentType: z.string(), size: z.number().int() });
export const VatStatus = z.enum(['valid', 'invalid', 'unavailable', 'pending', 'not_checked']);
export const Plan = z.enum(['free', 'pro']);
