import { z } from 'zod';
import { LanguageCode } from './languages';
import { Role } from './roles';
import { safeText } from './safe-text';
import { ApiKeyModeSchema } from './api-key-mode';

export const ApiKeyCreate = z
  .object({
    name: safeText(z.string().trim().min(1).max(100)).meta({ description: 'what the key is for, e.g. "ERP production"' }),
    role: Role.optional().meta({ description: 'the permission set the key carries (default admin; owner only by an owner)' }),
    mode: ApiKeyModeSchema.optional().meta({
      description:
        "live (default): `ak_live_…`, the company's real data. test: `ak_test_…`, the company's test data (docs/test-mode.md): isolated from live data, no quota, no e-mails handed to SMTP, PDFs marked TEST",
    }),
  })
  .meta({ id: 'ApiKeyCreate' });
export type ApiKeyCreate = z.output<typeof ApiKeyCreate>;

/** PUT /acctexp/config (also /datev/config): only the fields sent change. */
export const AcctExpConfigUpdate = z
  .object({
    consultant_number: z.number().int().min(1000).max(9_999_999).optional().meta({ description: 'DATEV Beraternummer' }),
    client_number: z.number().int().min(1).max(99_999).optional().meta({ description: 'DATEV Mandantennummer' }),
    chart_of_accounts: z.enum(['SKR03', 'SKR04']).optional(),
    fiscal_year_start_month: z
      .number()
      .int()
      .min(1)
      .max(12)
      .optional()
      .meta({ description: 'first month of the fiscal year (1 = January); exports are split per fiscal year' }),
    account_length: z
      .number()
      .int()
      .min(4)
      .max(8)
      .optional()
      .meta({ description: 'DATEV Sachkontenlänge (general-ledger account digits, 4-8); debtor accounts have one digit more' }),
  })
  .meta({ id: 'AcctExpConfigUpdate' });
export type AcctExpConfigUpdate = z.output<typeof AcctExpConfigUpdate>;

export const LocaleQuery = z.object({
  locale: LanguageCode.default('en').meta({ description: 'de or en (German and English are accepted too, in any case)' }),
});
