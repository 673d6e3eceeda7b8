import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Compiles the services for this run as the production image does (tools/build-services.mjs: esbuild, one bundle per
 * service, 2 s) into `<root>/tmp/start-<pid>` (inside the repository, so the bundles find node_modules; one per
 * launcher, since a build replaces its directory), and answers that directory and a function removing it. Builds of
 * launchers that are gone (killed) are removed first. A service started from its bundle starts faster and takes less
 * memory than through tsx (docs/performance.md).
 */
export async function buildServices(root: string): Promise<{ dir: string; remove: () => void }> {
  const tmp = join(root, 'tmp');
  try {
    for (const name of readdirSync(tmp)) {
      const m = /^start-(\d+)$/.exec(name);
      if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) rmSync(join(tmp, name), { recursive: true, force: true });
    }
  } catch {
    // no tmp/ yet
  }
  const dir = join(tmp, `start-${process.pid}`);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'tools', 'build-services.mjs')], {
      cwd: root,
      env: { ...process.env, BUILD_OUT: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.stderr.on('data', (c: Buffer) => (text += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the build failed (exit ${code}):\n${text.trim()}`))));
  }).catch((err: unknown) => {
    remove();
    throw err;
  });
  return { dir, remove };
}
