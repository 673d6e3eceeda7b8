import { createServer, type Server } from 'node:net';
import { assertPortsFree, isPortFree } from './ports';

describe('port checks', () => {
  let busy: Server;
  let port = 0;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    port = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => busy.close(() => r())));

  it('reports a listening port as in use', async () => {
    expect(await isPortFree(port)).toBe(false);
    await expect(assertPortsFree([port])).rejects.toThrow(`port ${port} is in use`);
  });
});
