import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createObjectStore } from './object-store';

/**
 * Copies one file to or from object storage, for jobs outside the services (the MongoDB backup CronJob and
 * its restore; deploy/README.md "Backups"). In the image: `node dist/objects-cli/main.js put|get <key> <file>`.
 * Reads S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY and S3_BUCKET (the bucket is created if missing on put).
 */
async function main(): Promise<void> {
  const [verb, key, file] = process.argv.slice(2);
  if (!['put', 'get'].includes(verb ?? '') || !key || !file) throw new Error('usage: put|get <key> <file>');
  const missing = ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET'].filter((name) => !process.env[name]);
  if (missing.length) throw new Error(`set ${missing.join(', ')}`);
  const store = createObjectStore({
    endpoint: process.env.S3_ENDPOINT!,
    accessKey: process.env.S3_ACCESS_KEY!,
    secretKey: process.env.S3_SECRET_KEY!,
    bucket: process.env.S3_BUCKET!,
    presignTtlSeconds: 60,
  });
  if (verb === 'put') {
    await store.ensureBucket();
    await store.putFile(key, file, 'application/octet-stream');
  } else {
    await pipeline(await store.getStream(key), createWriteStream(file));
  }
  process.stdout.write(`${verb} ${key} ok\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
