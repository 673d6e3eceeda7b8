import { startEmbeddedS3, type EmbeddedS3 } from '@inv/objects';
import {
  deleteBrokerObjects,
  identityHeaders,
  malformedMultipartBodies,
  sendRawRequest,
  testEnv,
  testMongo,
  uniquePrefix,
} from '@inv/testing';
import { inboundConfig } from './config';
import { createInboundService } from './inbound-service';
import { defaultKitDir } from './inspection/conformance-kit';

jest.setTimeout(120_000);

/**
 * POST /inbound/ gets every truncated and malformed multipart body (libs/testing malformedMultipartBodies): each is
 * answered with a 4xx problem (or, for a client gone mid-upload, nothing), nothing is stored, and the service keeps
 * answering. A stream error nobody listens to would end the process (here: fail the test run).
 */
describe('inbound-service upload route under malformed multipart', () => {
  const prefix = uniquePrefix('inbupl');
  const company = 'cmp_inbupl';
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: EmbeddedS3;
  let service: Awaited<ReturnType<typeof createInboundService>>;
  let base: string;

  beforeAll(async () => {
    mongo = await testMongo();
    s3 = await startEmbeddedS3();
    service = await createInboundService(
      inboundConfig.parse(
        testEnv(prefix, mongo.uri, {
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY: s3.accessKey,
          S3_SECRET_KEY: s3.secretKey,
          S3_BUCKET: `${prefix}-inbound`,
          INBOUND_CONFORMANCE_DIR: process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir(),
        }),
      ),
    );
    base = (await service.start()).url;
  });
  afterAll(async () => {
    await service?.stop();
    await s3?.stop();
    await deleteBrokerObjects(prefix);
    await mongo?.stop();
  });

  it('answers each malformed body with a 4xx, stores nothing and stays up', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      for (const type of ['application/pdf', 'application/xml']) {
        for (const m of malformedMultipartBodies('file', type)) {
          const status = await sendRawRequest(base, '/inbound/', await identityHeaders(company), m);
          if (m.abort) expect({ name: m.name, status }).toEqual({ name: m.name, status: 0 });
          else expect({ name: m.name, status: status >= 400 && status < 500 }).toEqual({ name: m.name, status: true });
        }
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(uncaught).toEqual([]);
      const list = await fetch(`${base}/inbound/`, { headers: await identityHeaders(company) });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { total?: number }).total ?? 0).toBe(0);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
