import { z } from 'zod';
import { createObjectStore, type ObjectStore } from './object-store';

/** Object-storage variables every service that stores files reads (account-, invoice-, document-, export-, inbound-service). */
export const objectStorageEnv = {
  /** S3/MinIO endpoint; required (a service without it refuses to start), optional here so that the reason is said plainly. */
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
 * The configured object store, its bucket created when missing. S3_ENDPOINT is required: services never start a
 * development stand-in themselves; `npm start` starts one s3rver for all services and the tests start their own
 * (libs/testing `testS3`), each passing its address as S3_ENDPOINT.
 */
export async function connectObjectStore(config: ObjectStorageEnv): Promise<ObjectStore> {
  if (!config.S3_ENDPOINT)
    throw new Error(
      'S3_ENDPOINT is unset: set it (npm start and the tests start the embedded development S3 server and pass its address; npm run -s s3:embedded starts one alone)',
    );
  const objects = createObjectStore({
    endpoint: config.S3_ENDPOINT,
    accessKey: config.S3_ACCESS_KEY,
    secretKey: config.S3_SECRET_KEY,
    bucket: config.S3_BUCKET,
    presignTtlSeconds: config.PRESIGNED_URL_TTL_SECONDS,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
  });
  await objects.ensureBucket();
  return objects;
}
