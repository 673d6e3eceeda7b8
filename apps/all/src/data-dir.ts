import { randomBytes } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { StartError } from './supervision';

/**
 * The data directory of `npm start` (DATA_DIR, default `.data/` in the repository root): the embedded MongoDB's files
 * (`mongo/`), the embedded object store's (`objects/`), the local e-mail inbox's (`mail/`), the generated API key and identity key, and the lock of the
 * launcher using it. Nothing deletes it but `--fresh` / FRESH=1.
 */
export interface DataDir {
  path: string;
  mongo: string;
  objects: string;
  /** maildev's messages (`--mail-directory`): an invitation sent before a Ctrl+C is still in the inbox after it. */
  mail: string;
  /** Releases the lock (idempotent; also on process exit). */
  release(): void;
}

export const dataDirPath = (root: string, env: NodeJS.ProcessEnv): string => {
  const dir = env.DATA_DIR?.trim();
  if (!dir) return join(root, '.data');
  return isAbsolute(dir) ? dir : resolve(process.cwd(), dir);
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, someone else's
  }
};

const LOCK = 'LOCK';

/**
 * Takes `<dir>/LOCK` (O_EXCL, holding this pid): a second launcher on the same directory is refused at once, whatever
 * its ports. A lock whose pid is dead (a launcher killed with SIGKILL) is taken over.
 */
function lock(dir: string, pid = process.pid): () => void {
  const file = join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        try {
          if (readFileSync(file, 'utf8').trim() === String(pid)) unlinkSync(file);
        } catch {
          // already gone (--fresh of a later run cannot happen while held; a user may delete it)
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') throw readOnly(dir, err as Error);
      if (code !== 'EEXIST') throw err;
      let owner = NaN;
      try {
        owner = Number(readFileSync(file, 'utf8').trim());
      } catch {
        // removed meanwhile: try again
      }
      if (Number.isInteger(owner) && owner > 0 && owner !== pid && alive(owner))
        throw new StartError(
          `the data directory ${dir} is in use by another launcher (pid ${owner}, ${file}); stop it first, or give this one DATA_DIR=<another directory>`,
        );
      // stale (its launcher is gone) or unreadable: take it over
      rmSync(file, { force: true });
    }
  }
  throw new StartError(`could not take the lock ${file}: another launcher keeps taking it`);
}

const readOnly = (dir: string, err: Error) =>
  new StartError(`the data directory ${dir} is not writable (${err.message}); make it writable, or choose another with DATA_DIR=<dir>`);

/**
 * Prepares the data directory: with `fresh`, deletes it first (after taking its lock, so a running launcher's data is
 * never deleted), creates it and its parts, and takes the lock.
 */
export function openDataDir(path: string, opts: { fresh?: boolean } = {}): DataDir {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') throw readOnly(path, err as Error);
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new StartError(`DATA_DIR ${path} is not a directory`);
    throw err;
  }
  if (!statSync(path).isDirectory()) throw new StartError(`DATA_DIR ${path} is not a directory`);
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
  } catch (err) {
    throw readOnly(path, err as Error);
  }
  const release = lock(path);
  try {
    if (opts.fresh) {
      // everything but the lock this launcher holds
      for (const part of readdirSync(path)) if (part !== LOCK) rmSync(join(path, part), { recursive: true, force: true });
    }
    const mongo = join(path, 'mongo');
    const objects = join(path, 'objects');
    const mail = join(path, 'mail');
    for (const dir of [mongo, objects, mail]) mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { path, mongo, objects, mail, release };
  } catch (err) {
    release();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') throw readOnly(path, err as Error);
    throw err;
  }
}

/**
 * A secret kept in `<dir>/<name>` (mode 0600): read when there, else `generate()`d and written. The launcher keeps the
 * bootstrap API key this way, so the key the first run printed works in every later run on the same data.
 */
export function keptSecret(dir: string, name: string, generate: () => string): { value: string; generated: boolean } {
  const file = join(dir, name);
  try {
    const value = readFileSync(file, 'utf8').trim();
    if (!value) throw new StartError(`${file} is empty; delete it (a new one is generated) or start with --fresh`);
    return { value, generated: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      if (err instanceof StartError) throw err;
      throw new StartError(`cannot read ${file} (${(err as Error).message}); make it readable or start with --fresh`);
    }
  }
  const value = generate();
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, `${value}\n`);
  } finally {
    closeSync(fd);
  }
  return { value, generated: true };
}

export const newApiKey = () => `ak_live_${randomBytes(16).toString('hex')}`;
export const newSigningKey = () => randomBytes(32).toString('hex');
