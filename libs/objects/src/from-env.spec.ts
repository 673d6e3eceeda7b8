import { connectObjectStore, objectStorageEnvSchema } from './from-env';

describe('connectObjectStore', () => {
  it('refuses to start without S3_ENDPOINT and says what to set (services never start an s3rver themselves)', async () => {
    await expect(connectObjectStore(objectStorageEnvSchema.parse({}))).rejects.toThrow(/^S3_ENDPOINT is unset: set it/);
  });
});
