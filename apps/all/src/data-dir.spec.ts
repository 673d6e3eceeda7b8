import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDirPath, keptSecret, openDataDir } from './data-dir';

describe('the data directory of npm start', () => {
  let base: string;
  beforeEach(() => (base = mkdtempSync(join(tmpdir(), 'inv-data-'))));
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('is .data/ in the repository root unless DATA_DIR names another', () => {
    expect(dataDirPath('/repo', {})).toBe('/repo/.data');
    expect(dataDirPath('/repo', { DATA_DIR: '/srv/inv' })).toBe('/srv/inv');
    expect(dataDirPath('/repo', { DATA_DIR: 'rel' })).toBe(join(process.cwd(), 'rel'));
  });

  it('keeps what is in it; --fresh empties it; the lock refuses a second launcher and is released', () => {
    const dir = join(base, 'data');
    const first = openDataDir(dir);
    writeFileSync(join(first.mongo, 'db.json'), '{}');
    writeFileSync(join(first.mail, 'invitation.eml'), 'Subject: x');
    expect(readFileSync(join(dir, 'LOCK'), 'utf8').trim()).toBe(String(process.pid));
    first.release();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
    const again = openDataDir(dir);
    expect(existsSync(join(again.mongo, 'db.json'))).toBe(true);
    expect(existsSync(join(again.mail, 'invitation.eml'))).toBe(true);
    again.release();
    const fresh = openDataDir(dir, { fresh: true });
    expect(existsSync(join(fresh.mongo, 'db.json'))).toBe(false);
    expect(existsSync(join(fresh.mail, 'invitation.eml'))).toBe(false);
    expect(existsSync(fresh.objects)).toBe(true);
    expect(existsSync(fresh.mail)).toBe(true);
    fresh.release();
  });

  it('refuses a directory locked by a live process, naming the directory; takes over a lock whose pid is dead', async () => {
    const dir = join(base, 'data');
    // a live process that is not this one holds the lock
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      openDataDir(dir).release();
      writeFileSync(join(dir, 'LOCK'), `${other.pid}\n`);
      expect(() => openDataDir(dir)).toThrow(`the data directory ${dir} is in use by another launcher (pid ${other.pid}`);
      expect(() => openDataDir(dir, { fresh: true })).toThrow('in use by another launcher');
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
    }
    // its launcher is gone: the lock is stale
    const taken = openDataDir(dir);
    expect(readFileSync(join(dir, 'LOCK'), 'utf8').trim()).toBe(String(process.pid));
    taken.release();
  });

  it('says clearly when the directory is read-only', () => {
    if (process.getuid?.() === 0) return; // root writes anyway
    const dir = join(base, 'ro');
    openDataDir(dir).release();
    chmodSync(dir, 0o500);
    try {
      expect(() => openDataDir(dir)).toThrow(`the data directory ${dir} is not writable`);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('keeps a generated secret in a 0600 file and answers the same one later', () => {
    const one = keptSecret(base, 'bootstrap-key', () => 'ak_live_one');
    expect(one).toEqual({ value: 'ak_live_one', generated: true });
    expect(statSync(join(base, 'bootstrap-key')).mode & 0o777).toBe(0o600);
    expect(keptSecret(base, 'bootstrap-key', () => 'ak_live_two')).toEqual({ value: 'ak_live_one', generated: false });
  });
});
