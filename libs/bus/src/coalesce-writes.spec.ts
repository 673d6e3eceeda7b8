import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { amqpSocketOf, coalesceWrites } from './coalesce-writes';

/** A stream that records each batch it is handed: what one system call would carry on a socket. */
function recordingStream(highWaterMark = 16 * 1024) {
  const batches: string[][] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, done) {
      batches.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      batches.push(chunks.map((c) => (c.chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, batches };
}

describe('coalesceWrites', () => {
  it('hands everything written within one tick to the stream as one batch, in order', async () => {
    const { stream, batches } = recordingStream();
    coalesceWrites(stream);
    stream.write('a');
    stream.write('b');
    stream.write(Buffer.from('c'));
    expect(batches).toEqual([]); // held until the tick ends, no longer
    await nextTurn();
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('holds nothing past its tick: writes of different ticks go out separately', async () => {
    const { stream, batches } = recordingStream();
    coalesceWrites(stream);
    stream.write('a');
    await nextTurn();
    stream.write('b');
    await nextTurn();
    expect(batches).toEqual([['a'], ['b']]);
  });

  it('keeps back-pressure: write answers false past the high-water mark, and drain follows the flush', async () => {
    const { stream, batches } = recordingStream(4);
    coalesceWrites(stream);
    expect(stream.write('ab')).toBe(true);
    expect(stream.write('cdef')).toBe(false);
    const drained = new Promise<void>((resolve) => stream.once('drain', () => resolve()));
    await drained;
    expect(batches).toEqual([['ab', 'cdef']]);
  });

  it('end() right after a write flushes what is held', async () => {
    const { stream, batches } = recordingStream();
    coalesceWrites(stream);
    stream.write('a');
    const finished = new Promise<void>((resolve) => stream.on('finish', () => resolve()));
    stream.end('b');
    await finished;
    expect(batches.flat()).toEqual(['a', 'b']);
  });

  it('applied twice, wraps write once and still corks once per tick', async () => {
    const { stream, batches } = recordingStream();
    coalesceWrites(stream);
    const wrapped = stream.write;
    coalesceWrites(stream);
    expect(stream.write).toBe(wrapped);
    stream.write('a');
    stream.write('b');
    await nextTurn();
    expect(batches).toEqual([['a', 'b']]);
    expect(stream.writableCorked).toBe(0);
  });

  it('passes write callbacks through', async () => {
    const { stream } = recordingStream();
    coalesceWrites(stream);
    const done = await new Promise<Error | null | undefined>((resolve) => stream.write('a', (err) => resolve(err)));
    expect(done == null).toBe(true);
  });
});

describe('amqpSocketOf', () => {
  it('finds nothing where an amqplib model keeps no socket (the connection then writes frame by frame, as before)', () => {
    expect(amqpSocketOf(undefined)).toBeUndefined();
    expect(amqpSocketOf({})).toBeUndefined();
    expect(amqpSocketOf({ connection: {} })).toBeUndefined();
    expect(amqpSocketOf({ connection: { stream: { write: () => true } } })).toBeUndefined();
  });

  it("finds the connection's stream when it is writable", () => {
    const { stream } = recordingStream();
    expect(amqpSocketOf({ connection: { stream } })).toBe(stream);
  });
});
