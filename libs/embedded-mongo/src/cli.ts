import { startEmbeddedMongo } from './api';

/**
 * `npm run -s mongo:embedded -- --port 27117 [--host 127.0.0.1] [--data-dir DIR]`: prints the URI, serves until a
 * signal; with --data-dir the data is kept there (see the README).
 */
function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const portArg = argValue(args, '--port');
  const port = portArg === undefined ? 0 : Number(portArg);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${portArg}`);
  const mongo = await startEmbeddedMongo({ port, host: argValue(args, '--host'), dataDir: argValue(args, '--data-dir') });
  process.stdout.write(`${mongo.uri}\n`);
  const stop = () => {
    void mongo.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
