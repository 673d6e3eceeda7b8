import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { isPortFree } from './ports';
import { probeReady, spawnService, stopService, waitReady } from './process-launcher';

/**
 * Ports that fetch() (undici, the WHATWG "bad ports" list) refuses before it connects, among those an unprivileged
 * process can bind. 10080 is the gateway's 8080 with PORT_OFFSET=2000: `PORT_OFFSET=2000 npm start` never became ready.
 */
const FETCH_BAD_PORTS = [10080, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 5060, 5061, 4190, 3659, 2049, 1723];

/** The first port of the list that nothing listens on now, or undefined (other runs share the machine). */
async function freeBadPort(): Promise<number | undefined> {
  for (const port of FETCH_BAD_PORTS) if (await isPortFree(port)) return port;
  return undefined;
}

function listen(handler: Parameters<typeof createServer>[1], port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const portOf = (server: Server) => (server.address() as AddressInfo).port;

describe('probeReady (node:http, every port)', () => {
  it('is true for a 2xx answer and false for another status, a closed port or no answer in time', async () => {
    const ok = await listen((req, res) => res.end(req.url));
    const unavailable = await listen((_req, res) => ((res.statusCode = 503), res.end()));
    const silent = await listen(() => undefined); // accepts, never answers
    const gone = await listen(() => undefined);
    const closedPort = portOf(gone);
    await close(gone); // nothing listens there any more
    try {
      expect(await probeReady(`http://127.0.0.1:${portOf(ok)}/readyz`)).toBe(true);
      expect(await probeReady(`http://127.0.0.1:${portOf(unavailable)}/readyz`)).toBe(false);
      expect(await probeReady(`http://127.0.0.1:${closedPort}/readyz`)).toBe(false);
      const started = Date.now();
      expect(await probeReady(`http://127.0.0.1:${portOf(silent)}/readyz`, 300)).toBe(false);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.closeAllConnections();
      await Promise.all([close(ok), close(unavailable), close(silent)]);
    }
  });

  it("succeeds on a port that fetch() refuses as a 'bad port' (skipped when every such port is taken)", async () => {
    const port = await freeBadPort();
    if (port === undefined) return console.warn(`skipped: ports ${FETCH_BAD_PORTS.join(', ')} are all taken`);
    const bad = await listen((_req, res) => res.end('ready'), port).catch(() => undefined);
    if (!bad) return console.warn(`skipped: port ${port} was taken between the check and the listen`);
    try {
      // why: fetch() refuses the port before it connects
      const refused = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        () => undefined,
        (err: Error) => err,
      );
      expect((refused?.cause as Error | undefined)?.message).toBe('bad port');
      expect(await probeReady(`http://127.0.0.1:${port}/readyz`)).toBe(true);
    } finally {
      await close(bad);
    }
  });

  it("waitReady sees a service ready on a 'bad port' (the gateway at 10080 with PORT_OFFSET=2000)", async () => {
    const port = await freeBadPort();
    if (port === undefined) return console.warn(`skipped: ports ${FETCH_BAD_PORTS.join(', ')} are all taken`);
    // a stand-in for the compiled gateway that answers /readyz on its PORT
    const root = mkdtempSync(join(tmpdir(), 'launcher-probe-'));
    mkdirSync(join(root, 'dist', 'gateway'), { recursive: true });
    writeFileSync(
      join(root, 'dist', 'gateway', 'main.js'),
      "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');",
    );
    const svc = spawnService('gateway', {
      root,
      services: ['gateway'],
      env: process.env,
      compiled: true,
      gatewayPort: port,
      stdio: 'ignore',
    });
    try {
      expect(svc.url).toBe(`http://127.0.0.1:${port}`);
      await expect(waitReady(svc, 15_000)).resolves.toBeUndefined();
    } finally {
      await stopService(svc, 2000);
      rmSync(root, { recursive: true, force: true });
    }
  });
});
