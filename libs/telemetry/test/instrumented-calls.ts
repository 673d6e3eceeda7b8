/**
 * Run as its own process (`node --import tsx`), because the instrumentations patch Node's require, which
 * Jest replaces: makes MongoDB and Redis calls outside and inside a trace and prints the finished spans.
 */
import { startTelemetry } from '../src/index';
import { trace } from '@opentelemetry/api';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import mongoose from 'mongoose';
import Redis from 'ioredis';

async function main() {
  const telemetry = startTelemetry({ serviceName: 'instrumentation-test', inMemory: true });
  const mongo = await startEmbeddedMongo({ port: 0 });
  const conn = await mongoose.createConnection(mongo.uri, { dbName: 'instr_test' }).asPromise();
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: `instr-${process.pid}:` });
  try {
    await conn.db!.collection('outside').findOne({ secret: 'not-in-a-trace' });
    await trace.getTracer('test').startActiveSpan('parent', async (parent) => {
      await conn.db!.collection('things').insertOne({ apiKey: 'ak_live_should_not_appear' });
      await redis.set('idem:ak_live_should_not_appear', '1', 'EX', 5);
      parent.end();
    });
    const spans = telemetry
      .memoryExporter!.getFinishedSpans()
      .map((s) => ({ name: s.name, traceId: s.spanContext().traceId, parent: s.parentSpanContext?.spanId, attributes: s.attributes }));
    process.stdout.write(JSON.stringify(spans));
  } finally {
    await redis.del('idem:ak_live_should_not_appear');
    redis.disconnect();
    await conn.dropDatabase();
    await conn.close();
    await mongo.stop();
    await telemetry.shutdown();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
