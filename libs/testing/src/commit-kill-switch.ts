import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay between a service and MongoDB that can kill the service right after it sent a transaction's commit:
 * the commit reaches MongoDB and is durable, the service never learns it (it is gone before the reply). That is the
 * "died after its commit, before its answer" of a request, exactly, with no hook inside the service.
 *
 * `arm(marker, pid)`: the next transaction that writes a command whose bytes contain `marker` (a collection name,
 * e.g. the idempotency journal's) gets its commitTransaction forwarded, then the process `pid` is sent SIGKILL.
 * Messages are read as MongoDB wire frames (int32 length first); BSON keeps names and strings as plain bytes.
 */
export interface CommitKillSwitch {
  /** The MongoDB URL to give the service (this relay's address, same database path and options). */
  uri: string;
  arm(marker: string, pid: number): Promise<void>;
  stop(): Promise<void>;
}

export async function commitKillSwitch(targetUri: string): Promise<CommitKillSwitch> {
  const target = new URL(targetUri.replace(/^mongodb:/, 'http:'));
  let armed: { marker: Buffer; pid: number; session?: Buffer; fired: () => void } | undefined;
  const sockets = new Set<Socket>();

  /** The bytes of a command's logical session id (`lsid`): the same in every command of one transaction. */
  const sessionOf = (frame: Buffer): Buffer | undefined => {
    const at = frame.indexOf('\x03lsid\0'); // an embedded document named lsid: its int32 length, then its fields
    return at < 0 || at + 10 > frame.length ? undefined : frame.subarray(at + 6, at + 6 + frame.readInt32LE(at + 6));
  };

  const inspect = (frame: Buffer): boolean => {
    if (!armed) return false;
    // a write inside a transaction (txnNumber) that names the marker: a read of the same collection does not arm it
    if (!armed.session && frame.includes(armed.marker) && frame.includes('txnNumber')) armed.session = sessionOf(frame);
    const session = sessionOf(frame);
    return !!armed.session && !!session && session.equals(armed.session) && frame.includes('commitTransaction');
  };

  const server: Server = createServer((client) => {
    const upstream = connect({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const frame = pending.subarray(0, pending.readInt32LE(0));
        pending = pending.subarray(frame.length);
        const kill = inspect(frame);
        upstream.write(frame, () => {
          if (!kill || !armed) return;
          const { pid, fired } = armed;
          armed = undefined;
          try {
            process.kill(pid, 'SIGKILL');
          } finally {
            fired();
          }
        });
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  // a direct connection: with a replica set name the driver would go to the host the server names, around the relay
  const query = new URLSearchParams(targetUri.split('?')[1] ?? '');
  query.delete('replicaSet');
  query.set('directConnection', 'true');
  const path = /^mongodb:\/\/[^/]+(\/[^?]*)?/.exec(targetUri)?.[1] ?? '/';
  return {
    uri: `mongodb://127.0.0.1:${port}${path}?${query}`,
    arm: (marker, pid) =>
      new Promise<void>((fired) => {
        armed = { marker: Buffer.from(marker), pid, fired };
      }),
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
