import { resolveMongoUri, startEmbeddedMongo } from './api';

describe('startEmbeddedMongo / resolveMongoUri', () => {
  const saved = { url: process.env.MONGO_URL, env: process.env.NODE_ENV };
  afterEach(() => {
    if (saved.url === undefined) delete process.env.MONGO_URL;
    else process.env.MONGO_URL = saved.url;
    process.env.NODE_ENV = saved.env;
  });

  it('uses MONGO_URL when set and never starts the embedded server', async () => {
    process.env.MONGO_URL = 'mongodb://db.example:27017/?replicaSet=prod';
    process.env.NODE_ENV = 'production';
    const r = await resolveMongoUri();
    expect(r).toMatchObject({ uri: 'mongodb://db.example:27017/?replicaSet=prod', embedded: false });
    await r.stop();
  });

  it('starts the embedded server on a free port when MONGO_URL is not set', async () => {
    delete process.env.MONGO_URL;
    const r = await resolveMongoUri();
    try {
      expect(r.embedded).toBe(true);
      expect(r.uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/\?replicaSet=rs0$/);
    } finally {
      await r.stop();
    }
  });

  it('refuses to start with NODE_ENV=production', async () => {
    delete process.env.MONGO_URL;
    process.env.NODE_ENV = 'production';
    await expect(resolveMongoUri()).rejects.toThrow(/embedded MongoDB is a development\/test tool/);
    await expect(startEmbeddedMongo()).rejects.toThrow(/MONGO_URL/);
  });

  it('listens on the requested port and frees it on stop', async () => {
    const first = await startEmbeddedMongo();
    await first.stop();
    const again = await startEmbeddedMongo({ port: first.port });
    expect(again.port).toBe(first.port);
    expect(again.uri).toContain(`:${first.port}/`);
    await again.stop();
  });
});
