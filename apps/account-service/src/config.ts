import { z } from 'zod';
import { objectStorageEnv } from '@inv/objects';
import { safeText } from '@inv/contracts';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const accountConfig = baseEnv.extend({
  PORT: envVars.port(3001),
  /** Object storage of the company logo. */
  ...objectStorageEnv,
  BOOTSTRAP_API_KEY: z
    .string()
    .regex(/^ak_live_[0-9a-f]{32}$/, 'ak_live_ followed by 32 lowercase hexadecimal characters')
    .optional(),
  /**
   * With BOOTSTRAP_API_KEY: bootstrap a company of this name with an empty profile (it enters its data through
   * PUT /company/ and validation names what is missing) instead of the demo company with its complete sample data.
   */
  /** Sender of invitation and sign-in e-mails. */
  MAIL_FROM: z.string().default('Invoicing <accounts@invoicing.localhost>'),
  /** Public base URL of the web app (links in invitation e-mails). */
  APP_URL: z.string().url().default('http://127.0.0.1:8080/app'),
  /** Logos processed at once (sharp; each is one libvips thread): the rest wait in a queue of LOGO_QUEUE_MAX. */
  LOGO_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** Logos that may wait for processing; one more answers 503 LOGO_BUSY with Retry-After. */
  LOGO_QUEUE_MAX: z.coerce.number().int().min(0).max(1000).default(8),
  BOOTSTRAP_COMPANY_NAME: safeText(z.string().trim().min(1).max(200)).optional(),
});
export type AccountConfig = z.output<typeof accountConfig>;
