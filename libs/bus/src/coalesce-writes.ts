import type { Writable } from 'node:stream';

const COALESCING = Symbol('inv.bus.coalescing-writes');

/**
 * Make every write to `stream` made within one tick of the event loop reach the kernel in one system call.
 *
 * amqplib writes each frame it has ready with its own `socket.write` (lib/mux.js writes one chunk per channel per
 * turn, and `sendBytes` one per frame), so a relay batch of publishes, the acks of a batch of deliveries or an
 * RPC's request and the ack before it each cost a write system call. On loopback, and on a VM, a write is not cheap:
 * it runs the receiver's side of TCP too. Corking the socket at the first write of a tick and uncorking it on the
 * next tick hands everything written in between to the kernel as one `writev`, the pattern Node's own HTTP client and
 * server use for a request's or response's head and body. Nothing is held longer than the tick that wrote it, the
 * bytes and their order are unchanged, `write` still answers false when the buffer passes the high-water mark (amqplib
 * then waits for 'drain', which follows the uncork), and `end()` flushes what is corked.
 *
 * Written here rather than taken from a library: it is Writable's own cork/uncork, a few lines, and no package
 * does it for a socket another library owns. Applying it twice to one stream does nothing more.
 */
export function coalesceWrites(stream: Writable): void {
  const marked = stream as Writable & { [COALESCING]?: true };
  if (marked[COALESCING]) return;
  marked[COALESCING] = true;
  const write = stream.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = function coalescedWrite(this: Writable, ...args: Parameters<Writable['write']>) {
    if (!corked && !stream.writableEnded && !stream.destroyed) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return (write as (...a: Parameters<Writable['write']>) => boolean).apply(this, args);
  } as Writable['write'];
}

/**
 * The socket under an amqplib connection (`ChannelModel.connection.stream`, amqplib 2.x), or undefined if a later
 * amqplib keeps it elsewhere: then the connection works as before, one write per frame (coalesce-writes.int.spec
 * checks that the installed amqplib still has it).
 */
export function amqpSocketOf(model: unknown): Writable | undefined {
  const stream = (model as { connection?: { stream?: unknown } } | undefined)?.connection?.stream;
  const candidate = stream as Partial<Writable> | undefined;
  return candidate && typeof candidate.cork === 'function' && typeof candidate.write === 'function' ? (stream as Writable) : undefined;
}
