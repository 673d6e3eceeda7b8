import type { Document } from 'bson';
import { Binary } from 'bson';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Collection, Entry } from '../storage/collection';
import type { ForkableMap } from '../storage/forkable-map';
import type { IndexSpec } from '../storage/index-manager';
import { Store, type ChangeLog } from '../storage/store';
import { damaged, EmbeddedMongoDataError, unwritable, WHAT_TO_DO } from './data-errors';
import { lock, unlock } from './dir-lock';
import { encodeFrame, scanFrames } from './frames';
import { ReplayState } from './replay';

/**
 * The data directory's files:
 *   FORMAT            the format version ("1"); a newer one is refused
 *   LOCK              the pid of the process using the directory
 *   snapshot.bson     the data as of the start of journal `next` (written to snapshot.tmp, fsynced, renamed)
 *   journal-<n>.log   every change since, appended and fsynced before the write is acknowledged
 * Each file is a sequence of frames (u32 length, u32 CRC-32, BSON op). Journal ops become effective at a commit
 * frame (`{ o: 'k' }`), written after the ops of one group commit, so a transaction is never half-applied.
 */
export const FORMAT_VERSION = 1;
const SNAPSHOT = 'snapshot.bson';
const JOURNAL = /^journal-(\d+)\.log$/;
const journalName = (gen: number) => `journal-${String(gen).padStart(8, '0')}.log`;

export { EmbeddedMongoDataError, type DataErrorReason } from './data-errors';

export interface DataDirOptions {
  /** Compact (snapshot + new journal) when the journal grows past this many bytes and past the last snapshot's size. */
  compactAfterBytes?: number;
}

async function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(
    () => true,
    () => false,
  );
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await fs.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Opens (creating when missing) a data directory: checks its format, replays the snapshot and the journals, cuts
 * a torn tail off the last journal, and returns the store and the journal that keeps recording it.
 */
export async function openDataDir(dir: string, opts: DataDirOptions = {}): Promise<{ store: Store; journal: Journal }> {
  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    throw unwritable(dir, err);
  }
  const formatFile = join(dir, 'FORMAT');
  const names = await fs.readdir(dir);
  const journals = names
    .map((n) => JOURNAL.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ gen: Number(m[1]), file: join(dir, m[0]) }))
    .sort((a, b) => a.gen - b.gen);
  if (await exists(formatFile)) {
    const text = (await fs.readFile(formatFile, 'utf8')).trim();
    const version = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(version >= 1)) throw damaged(formatFile, `does not hold a format version (found ${JSON.stringify(text.slice(0, 40))})`);
    if (version > FORMAT_VERSION) {
      throw new EmbeddedMongoDataError(
        `The data directory ${dir} was written by a newer version of the embedded MongoDB (format ${version}, ${formatFile}); ` +
          `this version reads format ${FORMAT_VERSION}. Update, or ${WHAT_TO_DO}.`,
        formatFile,
        'newer-format',
      );
    }
  } else if (journals.length || names.includes(SNAPSHOT)) {
    throw damaged(formatFile, 'is missing while the directory holds data');
  }
  const lockFile = await lock(dir);
  try {
    // everything is read and checked before anything in the directory is changed
    const state = new ReplayState();
    let firstGen = journals[0]?.gen ?? 1;
    let snapshotBytes = 0;
    const snapshotFile = join(dir, SNAPSHOT);
    if (await exists(snapshotFile)) {
      const buf = await fs.readFile(snapshotFile);
      snapshotBytes = buf.length;
      const scan = scanFrames(buf);
      if (!scan.ok || scan.end !== buf.length) throw damaged(snapshotFile, `cannot be read at byte ${scan.ok ? scan.end : scan.at}`);
      const [head, ...rest] = scan.ops.map((f) => f.op);
      const tail = rest.pop();
      if (head?.o !== 'snap' || tail?.o !== 'end') throw damaged(snapshotFile, 'is incomplete');
      try {
        for (const op of rest) state.apply(op);
      } catch (err) {
        throw damaged(snapshotFile, `holds an unreadable record (${(err as Error).message})`);
      }
      firstGen = Number(head.next);
    }
    const live = journals.filter((j) => j.gen >= firstGen);
    let journalBytes = 0;
    let torn: { file: string; end: number } | undefined;
    for (const [i, { file }] of live.entries()) {
      const buf = await fs.readFile(file);
      const scan = scanFrames(buf);
      if (!scan.ok) throw damaged(file, `cannot be read at byte ${scan.at} (damaged in the middle, not a write cut short by a crash)`);
      let pending: Document[] = [];
      let committedEnd = 0;
      try {
        for (const { op, end } of scan.ops) {
          if (op.o !== 'k') {
            pending.push(op);
            continue;
          }
          for (const p of pending) state.apply(p);
          pending = [];
          committedEnd = end;
        }
      } catch (err) {
        throw damaged(file, `holds an unreadable record (${(err as Error).message})`);
      }
      if (committedEnd !== buf.length) {
        // a group commit cut short by a crash: never acknowledged; cut it off so appends follow intact frames
        if (i !== live.length - 1) throw damaged(file, `ends in an incomplete record at byte ${committedEnd}`);
        torn = { file, end: committedEnd };
      }
      journalBytes = committedEnd;
    }
    let store: Store;
    try {
      store = state.toStore();
    } catch (err) {
      throw damaged(dir, `holds data that cannot be loaded (${(err as Error).message})`);
    }
    try {
      if (!(await exists(formatFile))) {
        const tmp = `${formatFile}.tmp`;
        await fs.writeFile(tmp, `${FORMAT_VERSION}\n`);
        await fs.rename(tmp, formatFile);
        await fsyncDir(dir);
      }
      if (torn) await fs.truncate(torn.file, torn.end);
      await fs.rm(join(dir, 'snapshot.tmp'), { force: true }); // a compaction cut short
      for (const old of journals.filter((j) => j.gen < firstGen)) await fs.unlink(old.file); // already in the snapshot
    } catch (err) {
      throw unwritable(dir, err);
    }
    const gen = live.at(-1)?.gen ?? firstGen;
    const file = join(dir, journalName(gen));
    let fh: FileHandle;
    try {
      fh = await fs.open(file, live.length ? 'r+' : 'w');
      if (!live.length) await fsyncDir(dir);
    } catch (err) {
      throw unwritable(dir, err);
    }
    const journal = new Journal(dir, store, fh, gen, journalBytes, snapshotBytes, lockFile, opts.compactAfterBytes ?? 64 * 1024 * 1024);
    store.record(journal);
    return { store, journal };
  } catch (err) {
    await unlock(lockFile);
    throw err;
  }
}

const COMMIT = encodeFrame({ o: 'k' });

/** The collections as they were at a journal switch (documents forked, O(1) each): what a snapshot writes. */
type Captured = Array<{ db: string; name: string; options: Document; uuid: Buffer; specs: IndexSpec[]; docs: ForkableMap<string, Entry> }>;

/** A switch to the next journal that compact() asked for. */
interface Rotation {
  fh: FileHandle;
  done(switched: { colls: Captured; oldFile: string }): void;
  cancel(): void;
}

/**
 * Appends the store's changes to the journal. Changes made while an fsync runs are written together by the next
 * one (group commit); `whenDurable` resolves once everything recorded so far is on disk.
 */
export class Journal implements ChangeLog {
  private pending: Buffer[] = [];
  private recorded = 0;
  private durable = 0;
  private scheduled = false;
  private flushing = false;
  private waiters: Array<{ seq: number; resolve: () => void; reject: (err: Error) => void }> = [];
  private compacting?: Promise<void>;
  private rotation?: Rotation;
  private closed = false;
  /** Set when a write to the journal failed: nothing more is written, writes are refused. */
  failed?: Error;

  constructor(
    readonly dir: string,
    private readonly store: Store,
    private fh: FileHandle,
    private gen: number,
    private size: number,
    private snapshotBytes: number,
    private readonly lockFile: string,
    private readonly compactAfterBytes: number,
  ) {}

  get file(): string {
    return join(this.dir, journalName(this.gen));
  }

  /** How many changes were recorded so far (compare before and after a command to see whether it wrote). */
  get changes(): number {
    return this.recorded;
  }

  put(coll: Collection, doc: Document): void {
    this.add({ o: 'p', d: coll.db, c: coll.name, doc });
  }
  remove(coll: Collection, id: unknown): void {
    this.add({ o: 'x', d: coll.db, c: coll.name, id });
  }
  createCollection(coll: Collection): void {
    this.add({ o: 'cc', d: coll.db, c: coll.name, opts: coll.options, uuid: new Binary(coll.uuid, 4) });
  }
  dropCollection(db: string, name: string): void {
    this.add({ o: 'dc', d: db, c: name });
  }
  dropDatabase(db: string): void {
    this.add({ o: 'dd', d: db });
  }
  index(coll: Collection, spec: IndexSpec): void {
    this.add({ o: 'ci', d: coll.db, c: coll.name, spec });
  }
  dropIndex(coll: Collection, name: string): void {
    this.add({ o: 'di', d: coll.db, c: coll.name, n: name });
  }
  rename(from: { db: string; name: string }, to: Collection): void {
    this.add({ o: 'rn', d: from.db, c: from.name, td: to.db, tc: to.name });
  }

  private add(op: Document): void {
    this.pending.push(encodeFrame(op));
    this.recorded++;
    if (!this.scheduled && !this.flushing) {
      this.scheduled = true;
      // the end of this turn of the event loop: every command answered in it shares one fsync
      setImmediate(() => void this.flush());
    }
  }

  /** Resolves when every change recorded so far is on disk; rejects when the journal cannot be written. */
  whenDurable(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.durable >= this.recorded) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq: this.recorded, resolve, reject }));
  }

  /**
   * Writes the pending changes, group after group, each ended by a commit frame and fsynced. A loop, not a chain:
   * under constant load it never returns to compact, so a requested journal switch happens between two groups.
   */
  private async flush(): Promise<void> {
    this.scheduled = false;
    if (this.flushing || this.failed) return;
    this.flushing = true;
    try {
      while (this.pending.length && !this.failed) {
        const frames = this.pending;
        this.pending = [];
        const upto = this.recorded;
        // a switch requested by compact: the snapshot holds exactly the changes written to the old journal
        const rotation = this.rotation;
        this.rotation = undefined;
        const colls = rotation ? this.capture() : undefined;
        frames.push(COMMIT);
        const buf = Buffer.concat(frames);
        try {
          let done = 0;
          while (done < buf.length) done += (await this.fh.write(buf, done, buf.length - done, this.size + done)).bytesWritten;
          await this.fh.datasync();
        } catch (err) {
          this.fail(err);
          if (rotation) rotation.cancel();
          break;
        }
        this.size += buf.length;
        this.durable = upto;
        this.waiters = this.waiters.filter((w) => (w.seq <= upto ? (w.resolve(), false) : true));
        if (rotation && colls) this.switchTo(rotation, colls);
      }
    } finally {
      this.flushing = false;
    }
    if (this.failed) return;
    if (this.rotation) this.switchTo(this.rotation, this.capture()); // requested during the last group
    if (!this.compacting && !this.closed && this.size > Math.max(this.compactAfterBytes, this.snapshotBytes)) {
      this.compacting = this.compact().finally(() => (this.compacting = undefined));
    }
  }

  /** The data as it is now: the collections' documents forked (O(1) each), for the snapshot. */
  private capture(): Captured {
    return this.store.allCollections().map((c) => ({
      db: c.db,
      name: c.name,
      options: c.options,
      uuid: c.uuid,
      specs: c.indexSpecs().filter((s) => s.name !== '_id_'),
      docs: c.docs.fork(),
    }));
  }

  /** Continues in the next journal (synchronously, between two groups). */
  private switchTo(rotation: Rotation, colls: Captured): void {
    this.rotation = undefined;
    const oldFh = this.fh;
    const oldFile = this.file;
    this.fh = rotation.fh;
    this.gen++;
    this.size = 0;
    void oldFh.close().catch(() => undefined);
    rotation.done({ colls, oldFile });
  }

  private fail(err: unknown): void {
    const reason = err instanceof Error ? err.message : String(err);
    this.failed = new Error(
      `the write could not be saved to ${this.file} (${reason}); it was not acknowledged, and this server accepts no more ` +
        'writes: free the disk (or make it writable) and restart it',
    );
    for (const w of this.waiters) w.reject(this.failed);
    this.waiters = [];
    const rotation = this.rotation;
    this.rotation = undefined;
    rotation?.cancel();
    // cut off whatever part of the failed group reached the file, so the journal ends with a complete record
    void this.fh.truncate(this.size).catch(() => undefined);
  }

  /**
   * Writes a snapshot of the data as it is now and continues in a new journal: the store's collections are forked
   * (O(1) each), the new journal takes every later change, and the snapshot is written meanwhile (snapshot.tmp,
   * fsync, rename, fsync of the directory); the old journal is deleted once the snapshot is in place.
   */
  async compact(): Promise<void> {
    const nextFile = join(this.dir, journalName(this.gen + 1));
    let nextFh: FileHandle;
    try {
      nextFh = await fs.open(nextFile, 'w');
      await fsyncDir(this.dir);
    } catch {
      return; // the journal keeps growing; a write that cannot be saved fails on its own
    }
    if (this.failed) return void (await nextFh.close().catch(() => undefined));
    const switched = await new Promise<{ colls: Captured; oldFile: string } | undefined>((resolve) => {
      const rotation: Rotation = { fh: nextFh, done: resolve, cancel: () => resolve(undefined) };
      // taken between two groups, or once the last one is written; a flush is running or scheduled when any is pending
      if (this.flushing || this.pending.length) this.rotation = rotation;
      else this.switchTo(rotation, this.capture()); // nothing pending: flush() runs only while something is
    });
    if (!switched) return void (await nextFh.close().catch(() => undefined));
    const { colls, oldFile } = switched;
    const next = this.gen;
    const tmp = join(this.dir, 'snapshot.tmp');
    let fh: FileHandle | undefined;
    let bytes = 0;
    try {
      fh = await fs.open(tmp, 'w');
      const out = fh;
      let chunk: Buffer[] = [];
      let chunkBytes = 0;
      const put = async (op: Document) => {
        const f = encodeFrame(op);
        chunk.push(f);
        chunkBytes += f.length;
        if (chunkBytes >= 1 << 20) await drain();
      };
      const drain = async () => {
        const buf = Buffer.concat(chunk);
        chunk = [];
        chunkBytes = 0;
        let done = 0;
        while (done < buf.length) done += (await out.write(buf, done, buf.length - done, bytes + done)).bytesWritten;
        bytes += buf.length;
      };
      await put({ o: 'snap', v: FORMAT_VERSION, next, at: new Date() });
      for (const c of colls) {
        await put({ o: 'cc', d: c.db, c: c.name, opts: c.options, uuid: new Binary(c.uuid, 4) });
        for (const spec of c.specs) await put({ o: 'ci', d: c.db, c: c.name, spec });
        for (const { doc } of c.docs.values()) await put({ o: 'p', d: c.db, c: c.name, doc });
      }
      await put({ o: 'end' });
      await drain();
      await out.sync();
      fh = undefined;
      await out.close();
      await fs.rename(tmp, join(this.dir, SNAPSHOT));
      await fsyncDir(this.dir);
      this.snapshotBytes = bytes;
      await fs.unlink(oldFile);
    } catch {
      // the old snapshot and both journals stay; the next start replays them
      await fh?.close().catch(() => undefined);
      await fs.unlink(tmp).catch(() => undefined);
    }
  }

  /** Writes what is pending, waits for a running compaction, and releases the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (!this.failed && (this.pending.length || this.flushing)) {
      await (this.pending.length && !this.flushing ? this.flush() : new Promise((r) => setImmediate(r)));
    }
    await this.compacting;
    await this.fh.close().catch(() => undefined);
    await unlock(this.lockFile);
  }
}
