import { randomUUID } from 'node:crypto';
import { asCompanyId, testTwinOf } from '@inv/contracts';
import { createObjectStore, type ObjectStore } from '@inv/objects';
import { deleteBrokerObjects, peerBus, testEnv, testMongo, testS3, uniquePrefix, waitFor } from '@inv/testing';
import { baseEnv, baseEnvWithoutDatabase, createServiceRuntime } from './service-runtime';

jest.setTimeout(60_000);

/**
 * DELETE /test-data's fan-out (docs/test-mode.md) for a service that stores files: on `test-data.reset-requested.v1`
 * the runtime removes the twin's documents once (commitOnce) and its stored files (`<twin>/…`) on every delivery;
 * the live company's files, and those of a company whose id merely starts alike, stay. A service without a database
 * (document-service) removes the files alone.
 */
describe('test data reset: stored files', () => {
  const prefix = uniquePrefix();
  const live = asCompanyId('cmp_files');
  const twin = testTwinOf(live);
  const twinFiles = [
    `${twin}/invoices/1/RE-1.pdf`,
    `${twin}/invoices/1/attachments/1-a.pdf`,
    `${twin}/inbound/2/original.xml`,
    `${twin}/exports/3/1-EXTF.zip`,
  ];
  const keptFiles = [
    `${live}/invoices/1/RE-1.pdf`,
    `${live}/company/logo-1.png`,
    `${testTwinOf(asCompanyId('cmp_files2'))}/invoices/1/RE-1.pdf`,
  ];
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let s3: Awaited<ReturnType<typeof testS3>>;
  let objects: ObjectStore;
  const peer = peerBus(prefix);

  beforeAll(async () => {
    [mongo, s3] = await Promise.all([testMongo(), testS3()]);
    objects = createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: 'docs',
      presignTtlSeconds: 60,
    });
    await objects.ensureBucket();
    await peer.start();
  });
  afterAll(async () => {
    await peer.stop();
    await deleteBrokerObjects(prefix);
    await Promise.all([mongo?.stop(), s3?.stop()]);
  });

  const putAll = (keys: string[]) => Promise.all(keys.map((k) => objects.put(k, Buffer.from(k), 'application/pdf')));
  const present = async (keys: string[]) => (await Promise.all(keys.map((k) => objects.exists(k)))).filter(Boolean).length;
  const announce = (id: string) =>
    peer.publishEvent('test-data.reset-requested.v1', twin, { requestedAt: new Date().toISOString() }, { id });

  it("removes the twin's documents once and its files on every delivery; live files stay", async () => {
    const rt = await createServiceRuntime({
      service: 'files-test',
      database: 'invoicing_files_test',
      port: 0,
      env: baseEnv.parse(testEnv(prefix, mongo.uri)),
      testFiles: objects,
    });
    await rt.start();
    try {
      const docs = rt.conn.db!.collection('attachments');
      await docs.insertMany([
        { _id: `${twin}:1` as never, companyId: twin, key: twinFiles[1] },
        { _id: `${live}:1` as never, companyId: live, key: keptFiles[0] },
      ]);
      await putAll([...twinFiles, ...keptFiles]);
      const id = randomUUID();
      await announce(id);
      await waitFor(async () => (await present(twinFiles)) === 0 && (await docs.countDocuments({ companyId: twin })) === 0, {
        what: "the twin's documents and files to go",
      });
      expect(await present(keptFiles)).toBe(keptFiles.length);
      expect(await docs.countDocuments({ companyId: live })).toBe(1);

      // the same announcement again (a redelivery, say after a restart between the commit and the files): the
      // documents were removed once (the inbox), the files that are there again go again
      await docs.insertOne({ _id: `${twin}:2` as never, companyId: twin });
      await putAll(twinFiles.slice(0, 2));
      await announce(id);
      await waitFor(async () => (await present(twinFiles)) === 0, { what: 'the redelivery to remove the files' });
      expect(await docs.countDocuments({ companyId: twin })).toBe(1); // commitOnce: not deleted twice
      expect(await present(keptFiles)).toBe(keptFiles.length);
    } finally {
      await rt.stop();
    }
  });

  it('without a database (document-service): removes the files alone', async () => {
    const rt = await createServiceRuntime({
      service: 'files-nodb-test',
      database: undefined,
      port: 0,
      env: baseEnvWithoutDatabase.parse(testEnv(prefix, undefined)),
      testFiles: objects,
    });
    await rt.start();
    try {
      await putAll([...twinFiles, ...keptFiles]);
      await announce(randomUUID());
      await waitFor(async () => (await present(twinFiles)) === 0, { what: "the twin's files to go" });
      expect(await present(keptFiles)).toBe(keptFiles.length);
    } finally {
      await rt.stop();
    }
  });
});
