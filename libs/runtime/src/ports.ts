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
