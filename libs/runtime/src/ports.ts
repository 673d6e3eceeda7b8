import { createServer } from 'node:net';

/** Resolves true when nothing listens on 127.0.0.1:port (we can bind it), false when it is taken. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const srv = createServer();
    srv.once('error', () => resolvePromise(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolvePromise(true)));
  });
}

/** Checks every port before anything starts; throws "port N is in use" naming the first busy one. */
export async function assertPortsFree(ports: number[], host = '127.0.0.1'): Promise<void> {
  for (const port of ports) {
    if (!(await isPortFree(port, host))) throw new Error(`port ${port} is in use`);
  }
}

/**
 * A random port offset for a test system whose every port (each default port + offset) is free now. The offsets
 * keep all ports below 32768, where Linux takes the local ports of outgoing connections (ip_local_port_range
 * 32768-60999): a service port up there can be taken by any client socket of another run between the check and
 * the service's listen.
 */
export async function freePortOffset(defaultPorts: number[], tries = 20): Promise<number> {
  const highest = Math.max(...defaultPorts);
  const max = 32_000 - highest;
  const min = 10_000;
  if (max <= min) throw new Error(`default ports up to ${highest} leave no offset below 32000`);
  for (let i = 0; i < tries; i++) {
    const offset = min + Math.floor(Math.random() * (max - min));
    let free = true;
    for (const port of defaultPorts) {
      if (!(await isPortFree(port + offset))) {
        free = false;
        break;
      }
    }
    if (free) return offset;
  }
  throw new Error(`no free port offset found in ${tries} tries`);
}
