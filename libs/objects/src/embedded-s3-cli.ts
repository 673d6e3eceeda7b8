import { startEmbeddedS3 } from './embedded-s3';
import { createObjectStore } from './object-store';

/**
 * `npm run -s s3:embedded -- [--port 9000] [--bucket invoicing-documents]`: the development S3 server in a process
 * of its own (benchmarks count its work apart from the services'). Creates the bucket, prints one JSON line
 * `{ endpoint, accessKey, secretKey, bucket }` and serves until a signal.
 */
function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const portArg = argValue(args, '--port');
  const port = portArg === undefined ? 0 : Number(portArg);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${portArg}`);
  const bucket = argValue(args, '--bucket') ?? 'invoicing-documents';
  const s3 = await startEmbeddedS3({ port });
  await createObjectStore({
    endpoint: s3.endpoint,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    bucket,
    presignTtlSeconds: 60,
  }).ensureBucket();
  process.stdout.write(`${JSON.stringify({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket })}\n`);
  const stop = () => {
    void s3.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
