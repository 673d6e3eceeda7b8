import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asCompanyId } from '@inv/contracts';
import { createIdentitySigner } from '@inv/service-kit';
import { resourceFetcher, ResourceUnavailable } from './resource-fetcher';

describe('resource fetcher', () => {
  it('reads over kept-alive connections, asks again once when a reused one was closed under it, and maps 404 and 5xx', async () => {
    const sockets = new Map<unknown, number>();
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      const n = (sockets.get(req.socket) ?? 0) + 1;
      sockets.set(req.socket, n);
      // the owner restarted: the second request on a connection finds it gone (reset, no answer)
      if (n === 2) return void req.socket.destroy();
      if (req.url === '/invoice/404') return void res.writeHead(404).end('{}');
      if (req.url === '/invoice/500') return void res.writeHead(500).end('{}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 7, url: req.url }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetchResource = resourceFetcher(
      { INVOICE_URL: url, CUSTOMER_URL: url, EXPORT_URL: url, QUOTA_URL: url, INBOUND_URL: url, RECURRING_URL: url },
      createIdentitySigner(['k'.repeat(32)]),
    );
    const company = asCompanyId('cmp_fetch');
    try {
      expect(await fetchResource(company, { kind: 'invoice', id: 7 })).toEqual({ id: 7, url: '/invoice/7' });
      // reused connection reset: asked again on a new one, transparently
      expect(await fetchResource(company, { kind: 'inbound', id: 3 })).toEqual({ id: 7, url: '/inbound/3' });
      expect(requests).toBe(3);
      expect(await fetchResource(company, { kind: 'bank_statement', id: 9 })).toEqual({ id: 7, url: '/bank-statements/9' });
      expect(await fetchResource(company, { kind: 'invoice', id: 404 }).catch((e: unknown) => e)).toBeNull();
      const failed = await fetchResource(company, { kind: 'invoice', id: 500 }).catch((e: unknown) => e);
      // a 5xx (possibly after a reset reused connection): unavailable now, prepared again later
      expect(failed).toBeInstanceOf(ResourceUnavailable);
    } finally {
      fetchResource.close();
      await new Promise((r) => server.close(r));
    }
  });
});
