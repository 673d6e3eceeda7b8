import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needsDatabase, spawnService } from './process-launcher';

describe('spawnService', () => {
  let root: string;
  beforeAll(() => {
    // a stand-in for the compiled gateway that reports the environment and flags it was started with
    root = mkdtempSync(join(tmpdir(), 'launcher-'));
    mkdirSync(join(root, 'dist', 'gateway'), { recursive: true });
    writeFileSync(
      join(root, 'dist', 'gateway', 'main.js'),
      'process.stdout.write(JSON.stringify({ arenas: process.env.MALLOC_ARENA_MAX ?? null, port: process.env.PORT, gc: typeof gc }));',
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const started = (env: NodeJS.ProcessEnv) =>
    new Promise<{ arenas: string | null; port: string; gc: string }>((resolve, reject) => {
      const svc = spawnService('gateway', { root, services: ['gateway'], env, compiled: true, gatewayPort: 18999, stdio: 'pipe' });
      let out = '';
      svc.child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      svc.child.once('error', reject);
      svc.child.once('exit', () => resolve(JSON.parse(out)));
    });

  it("starts a service with the services' node flags and environment (glibc's malloc at 2 arenas)", async () => {
    const { MALLOC_ARENA_MAX: _, ...env } = process.env;
    expect(await started(env)).toEqual({ arenas: '2', port: '18999', gc: 'function' });
  });

  it("lets the caller's environment choose the arenas", async () => {
    expect((await started({ ...process.env, MALLOC_ARENA_MAX: '4' })).arenas).toBe('4');
  });
});

describe('spawnService and MongoDB', () => {
  let root: string;
  beforeAll(() => {
    // stand-ins for two compiled services that report the MongoDB variables they were started with
    root = mkdtempSync(join(tmpdir(), 'launcher-db-'));
    for (const dir of ['document-service', 'quota-service']) {
      mkdirSync(join(root, 'dist', dir), { recursive: true });
      writeFileSync(
        join(root, 'dist', dir, 'main.js'),
        'process.stdout.write(JSON.stringify([process.env.MONGO_URL ?? null, process.env.MONGO_DATABASE_PREFIX ?? null]));',
      );
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const mongoEnvOf = (name: 'document' | 'quota') =>
    new Promise<unknown>((resolve, reject) => {
      const env = { ...process.env, MONGO_URL: 'mongodb://user:secret@127.0.0.1:1/', MONGO_DATABASE_PREFIX: 't_' };
      const svc = spawnService(name, { root, services: [name], env, compiled: true, stdio: 'pipe' });
      let out = '';
      svc.child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      svc.child.once('error', reject);
      svc.child.once('exit', () => resolve(JSON.parse(out)));
    });

  it('passes the MongoDB address to a service that keeps data, and not to one that keeps none', async () => {
    expect(needsDatabase('quota')).toBe(true);
    expect(needsDatabase('document')).toBe(false);
    expect(await mongoEnvOf('quota')).toEqual(['mongodb://user:secret@127.0.0.1:1/', 't_']);
    expect(await mongoEnvOf('document')).toEqual([null, null]);
  });
});
