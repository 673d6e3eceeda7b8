import { deleteBrokerObjects, testEnv, testMongo, uniquePrefix } from '@inv/testing';
import { baseEnv, baseEnvWithoutDatabase, createServiceRuntime } from './service-runtime';

/**
 * The database is optional: a service that keeps no data (document-, vat-service) starts without MongoDB,
 * reports readiness without it and cannot reach the outbox; one with a database refuses to start without
 * MONGO_URL. The `@ts-expect-error` lines are checked by the typecheck target (tsc over spec files too).
 */
describe('createServiceRuntime', () => {
  const prefix = uniquePrefix();
  afterAll(() => deleteBrokerObjects(prefix));

  it('without a database: starts with no MONGO_URL, readiness lists RabbitMQ only, no outbox to commit to', async () => {
    const env = baseEnvWithoutDatabase.parse(testEnv(prefix, undefined));
    const rt = await createServiceRuntime({ service: 'storeless-test', database: undefined, port: 0, env });
    // @ts-expect-error a runtime without a database has no commit (nor outbox, relay, conn)
    expect(rt.commit).toBeUndefined();
    const { url } = await rt.start();
    try {
      const res = await fetch(`${url}/readyz`);
      expect([res.status, await res.json()]).toEqual([200, { status: 'ready', service: 'storeless-test', checks: { rabbitmq: true } }]);
    } finally {
      await rt.stop();
    }
  });

  it('with a database: readiness reports MongoDB too', async () => {
    const mongo = await testMongo();
    try {
      const rt = await createServiceRuntime({
        service: 'stored-test',
        database: 'invoicing_stored_test',
        port: 0,
        env: baseEnv.parse(testEnv(prefix, mongo.uri)),
      });
      const { url } = await rt.start();
      try {
        expect(typeof rt.commit).toBe('function');
        const body = (await (await fetch(`${url}/readyz`)).json()) as { checks: unknown };
        expect(body.checks).toEqual({ mongodb: true, rabbitmq: true });
      } finally {
        await rt.stop();
      }
    } finally {
      await mongo.stop();
    }
  });

  it('with a database and no MONGO_URL: refuses to start and says what to set', async () => {
    const env = baseEnv.parse(testEnv(prefix, undefined));
    await expect(createServiceRuntime({ service: 'stored-test', database: 'invoicing_stored_test', port: 0, env })).rejects.toThrow(
      /^MONGO_URL is unset: set it/,
    );
  });
});
