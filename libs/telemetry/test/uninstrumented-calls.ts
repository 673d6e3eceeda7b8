/**
 * Run as its own process (`node --import tsx`), like instrumented-calls.ts: starts telemetry without an
 * exporter and prints whether the MongoDB driver is still patched (it should not be: nothing is recorded).
 */
import { createRequire } from 'node:module';
import { startTelemetry } from '../src/index';
import mongoose from 'mongoose';

async function main() {
  const telemetry = startTelemetry({ serviceName: 'uninstrumented-test' });
  // the driver mongoose loads (its own copy), as the services use it
  const fromMongoose = createRequire(require.resolve('mongoose'));
  const { Connection } = fromMongoose('mongodb/lib/cmap/connection.js') as { Connection: { prototype: { command: unknown } } };
  const wrapped = (f: unknown) => Boolean((f as { __wrapped?: boolean }).__wrapped);
  process.stdout.write(JSON.stringify({ mongoose: mongoose.version, commandWrapped: wrapped(Connection.prototype.command) }));
  await telemetry.shutdown();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
