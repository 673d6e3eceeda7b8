import { createServer, type Server } from 'node:net';
import { assertPortsFree, freePortOffset, isPortFree } from './ports';

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

  it('picks an offset whose ports are all free and below the ephemeral range', async () => {
    const defaults = [3001, 3007, 8080];
    for (let i = 0; i < 5; i++) {
      const offset = await freePortOffset(defaults);
      expect(offset).toBeGreaterThanOrEqual(10_000);
      expect(8080 + offset).toBeLessThan(32_768);
      for (const p of defaults) expect(await isPortFree(p + offset)).toBe(true);
    }
  });
});
