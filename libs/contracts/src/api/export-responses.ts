import { z } from 'zod';
import { Day, Timestamp } from './response-fields';

/** Response bodies of the accounting export: configuration and downloads (see responses.ts). */

export const AcctExpConfig = z
  .object({
    consultant_number: z.number().int().nullable(),
    client_number: z.number().int().nullable(),
    chart_of_accounts: z.enum(['SKR03', 'SKR04']),
    fiscal_year_start_month: z.number().int(),
    account_length: z.number().int().meta({ description: 'Sachkontenlänge, 4-8 (default 4)' }),
  })
  .meta({ id: 'AcctExpConfig' });

export const Download = z
  .object({
    id: z.number().int(),
    filename: z.string().meta({ description: 'e.g. DATEV_EXTF_<consultant>_<client>_<from>_<to>.zip' }),
    size: z.number().int().meta({ description: 'bytes' }),
    created_at: Timestamp,
    job_id: z.string(),
    period: z
      .object({ start: Day, end: Day })
      .meta({ description: 'the part of the export period this file covers (one fiscal year at most)' }),
    invoice_count: z.number().int(),
  })
  .meta({
    id: 'Download',
    example: {
      id: 7,
      filename: 'DATEV_EXTF_29098_55003_20251001_20251231.zip',
      size: 48213,
      created_at: '2026-11-24T09:00:00.400Z',
      job_id: '5d0c1c2e-2b7a-4c38-9a57-0d7f3b2e9c11',
      period: { start: '2025-10-01', end: '2025-12-31' },
      invoice_count: 131,
    },
  });
