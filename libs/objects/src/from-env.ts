import { z } from 'zod';
import { createObjectStore, type ObjectStore } from './object-store';
import { startEmbeddedS3, type EmbeddedS3 } from './embedded-s3';

/** Object-storage variables every service that stores files reads (document-service, export-service). */
export const objectStorageEnv = {
  /** S3/MinIO endpoint; when unset outside production an embedded s3rver is started. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_ACCESS_KEY: z.string().default('S3RVER'),
  S3_SECRET_KEY: z.string().default('S3RVER'),
  S3_BUCKET: z.string().default('invoicing-documents'),
  /** Address clients use to reach object storage, when it differs from S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  PRESIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(300),
};
export const objectStorageEnvSchema = z.object(objectStorageEnv);
export type ObjectStorageEnv = z.output<typeof objectStorageEnvSchema>;

/**
 * The configured object store, or (S3_ENDPOINT unset, outside production) an embedded s3rver of this
 * process. `npm start` starts one s3rver for all services and sets S3_ENDPOINT, so they share it.
 */
export async function openObjectStore(
  config: ObjectStorageEnv,
  warn: (endpoint: string) => void,
): Promise<{ objects: ObjectStore; stop: () => Promise<void> }> {
  let embedded: EmbeddedS3 | undefined;
  if (!config.S3_ENDPOINT) {
    embedded = await startEmbeddedS3();
    warn(embedded.endpoint);
  }
  const objects = createObjectStore({
    endpoint: config.S3_ENDPOINT ?? (embedded as EmbeddedS3).endpoint,
    accessKey: embedded?.accessKey ?? config.S3_ACCESS_KEY,
    secretKey: embedded?.secretKey ?? config.S3_SECRET_KEY,
    bucket: config.S3_BUCKET,
    presignTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
  });
  await objects.ensureBucket();
  return { objects, stop: async () => embedded?.stop() };
}
