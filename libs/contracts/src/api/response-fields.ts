import { z } from 'zod';

/** Field shapes the response bodies share (not exported from the package). */
export const Money = z.number().meta({ description: 'amount in EUR, exact to the cent' });
export const Timestamp = z.string().meta({ description: 'ISO 8601 date-time (UTC)', example: '2026-11-21T10:15:00.000Z' });
export const Day = z.string().meta({ description: 'calendar date YYYY-MM-DD', example: '2026-11-21' });
