/**
 * `npm run test:containers`: the integration suites against real infrastructure in containers
 * (testcontainers), where a Docker engine is reachable:
 *   - the embedded-MongoDB conformance suite against MongoDB 7 as a replica set (rs0; transactions),
 *   - the bus integration tests (libs/bus) against RabbitMQ 4.1 (quorum queues included),
 *   - the object-store integration tests (libs/objects) against SeaweedFS's S3 API, the production store.
 * Images are the ones the manifests pin (same digests). Without a Docker engine (a `docker` client alone
 * is not enough) it prints one loud SKIPPED line and exits 0, so CI on machines without Docker stays green.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { StartedTestContainer } from 'testcontainers';

export const IMAGES = {
  mongo: 'mongo:7.0@sha256:340c1c56fb10e95cf79ff547f8664b96bc6ead9909bc355238cbf865a9695a6f',
  rabbitmq: 'rabbitmq:4.1-management@sha256:3574a8edaca320282b9c848f0b2661566b7e74f52c1b590f401b10224d294642',
  s3: 'chrislusf/seaweedfs:4.29@sha256:d47c7ee99fcb951351d7194915f4e3a5ea604a8e8871183d713907dec4fb9bf5',
};

const root = resolve(__dirname, '../..');

/** The engine testcontainers would use (DOCKER_HOST, the socket, a testcontainers.properties), or undefined. */
async function dockerEngine(): Promise<string | undefined> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const client = await getContainerRuntimeClient();
    return client.info.containerRuntime.host;
  } catch {
    return undefined;
  }
}

function jest(config: string, pattern: string, env: Record<string, string>): boolean {
  console.log(`\n[test:containers] jest --config ${config} ${pattern}`);
  const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', config, '--runInBand', pattern], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  return run.status === 0;
}

async function main(): Promise<number> {
  const engine = await dockerEngine();
  if (!engine) {
    console.warn(
      '[test:containers] SKIPPED: no Docker engine reachable (a docker client alone is not enough); nothing ran. Run it where `docker info` works.',
    );
    return 0;
  }
  console.log(`[test:containers] Docker engine: ${engine}`);
  const { GenericContainer, Wait } = await import('testcontainers');
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const { RabbitMQContainer } = await import('@testcontainers/rabbitmq');
  const started: StartedTestContainer[] = [];
  try {
    const [mongo, rabbit, s3] = await Promise.all([
      new MongoDBContainer(IMAGES.mongo).start(),
      new RabbitMQContainer(IMAGES.rabbitmq).start(),
      new GenericContainer(IMAGES.s3)
        .withEntrypoint(['sh', '-c'])
        .withCommand([
          `printf '{"identities":[{"name":"t","credentials":[{"accessKey":"testkey","secretKey":"testsecret123"}],"actions":["Admin","Read","Write","List","Tagging"]}]}' > /tmp/s3.json && exec weed server -dir=/data -ip.bind=0.0.0.0 -volume.max=0 -s3 -s3.port=9000 -s3.config=/tmp/s3.json`,
        ])
        .withExposedPorts(9000)
        .withWaitStrategy(Wait.forListeningPorts())
        .start(),
    ]);
    started.push(mongo, rabbit, s3);
    const results = [
      // a single-member replica set reached from the host: directConnection, the member's own host name is the container's
      jest('libs/embedded-mongo/jest.config.cjs', 'conformance', { MONGO_URL: `${mongo.getConnectionString()}/?directConnection=true` }),
      jest('libs/bus/jest.config.cjs', 'int.spec', { AMQP_URL: rabbit.getAmqpUrl() }),
      jest('libs/objects/jest.config.cjs', 'object-store.int', {
        S3_TEST_ENDPOINT: `http://${s3.getHost()}:${s3.getMappedPort(9000)}`,
        S3_TEST_ACCESS_KEY: 'testkey',
        S3_TEST_SECRET_KEY: 'testsecret123',
      }),
    ];
    const failed = results.filter((ok) => !ok).length;
    console.log(`\n[test:containers] ${results.length - failed} suites passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  } finally {
    await Promise.all(started.map((c) => c.stop().catch(() => undefined)));
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('[test:containers] could not start the containers:', err);
    process.exit(1);
  },
);
