import { z } from 'zod';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const documentConfig = baseEnv.extend({
  PORT: envVars.port(3004),
  /** S3/MinIO endpoint; when unset outside production an embedded s3rver is started. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY: z.string().default('S3RVER'),
  S3_SECRET_KEY: z.string().default('S3RVER'),
  S3_BUCKET: z.string().default('invoicing-documents'),
  /** Address clients use to reach object storage, when it differs from S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  PRESIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(300),
});
export type DocumentConfig = z.output<typeof documentConfig>;
