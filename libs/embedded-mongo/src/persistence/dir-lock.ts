import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedMongoDataError, unwritable } from './data-errors';

/** LOCK files this process holds (a pid alone cannot tell: in a container every start may get the same pid). */
const heldHere = new Set<string>();

/** When a process started (clock ticks since boot, Linux), to tell a live LOCK holder from a reused pid. */
async function startTimeOf(pid: number): Promise<string | undefined> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

async function holderAlive(file: string, pid: number, started: string | undefined): Promise<boolean> {
  if (!(pid > 0)) return false;
  if (pid === process.pid) return heldHere.has(file);
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = started ? await startTimeOf(pid) : undefined;
  return !(started && now && now !== started); // the pid was reused by another process
}

/** Takes the directory's LOCK, or throws when a live process holds it (a `kill -9`ed one's is taken over). */
export async function lock(dir: string): Promise<string> {
  const file = join(dir, 'LOCK');
  const mine = `${process.pid} ${(await startTimeOf(process.pid)) ?? ''}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.writeFile(file, mine, { flag: 'wx' });
      heldHere.add(file);
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw unwritable(dir, err);
    }
    const [pidText, started] = (await fs.readFile(file, 'utf8').catch(() => '')).trim().split(' ');
    const pid = Number(pidText);
    if (await holderAlive(file, pid, started || undefined)) {
      throw new EmbeddedMongoDataError(
        `The data directory ${dir} is in use by process ${pid} (see ${file}); stop it first, or use another directory ` +
          '(if no such process uses it, delete that file).',
        file,
        'in-use',
      );
    }
    await fs.unlink(file).catch(() => undefined);
  }
}

export async function unlock(file: string): Promise<void> {
  heldHere.delete(file);
  await fs.unlink(file).catch(() => undefined);
}
