import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';

describe('mongo:embedded CLI', () => {
  it('prints the URI on its first line, serves, and exits on SIGTERM', async () => {
    const root = join(__dirname, '../../..');
    const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(__dirname, 'cli.ts'), '--port', '0'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', MONGO_URL: '' },
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', () => reject(new Error('CLI exited before printing the URI')));
    });
    expect(firstLine).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/\?replicaSet=rs0$/);
    const client = await new MongoClient(firstLine, { serverSelectionTimeoutMS: 5000 }).connect();
    expect((await client.db('admin').command({ ping: 1 })).ok).toBe(1);
    await client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});
