import http from 'node:http';
import https from 'node:https';
import type { CompanyId } from '@inv/contracts';
import { IDENTITY_HEADER, IDENTITY_TOKEN_TTL_SECONDS, type IdentitySigner } from '@inv/service-kit';
import type { ResourceRef } from '../domain/event-mapping';

export interface OwnerUrls {
  INVOICE_URL: string;
  CUSTOMER_URL: string;
  EXPORT_URL: string;
  QUOTA_URL: string;
  INBOUND_URL: string;
  RECURRING_URL: string;
}

/** The resource could not be read now (its owner is down or slow): the delivery is prepared again later. */
export class ResourceUnavailable extends Error {}

/**
 * One GET at an owner: its status and body, or an error (refused, reset, timed out). A kept-alive connection the
 * owner closed meanwhile (it restarted) fails as it is reused: asked again once on a new one.
 */
async function getOnce(agents: Agents, target: string, headers: Record<string, string>, timeoutMs: number) {
  try {
    return await getOver(agents, target, headers, timeoutMs);
  } catch (err) {
    if (!(err as { reusedSocket?: boolean }).reusedSocket) throw err;
    return getOver(agents, target, headers, timeoutMs);
  }
}

function getOver(agents: Agents, target: string, headers: Record<string, string>, timeoutMs: number) {
  const url = new URL(target);
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    // the whole answer within the timeout (a slow trickle too)
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), timeoutMs);
    let answered = false;
    const req = mod.get(url, { agent: url.protocol === 'https:' ? agents.https : agents.http, headers }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (err) => (clearTimeout(timer), reject(err)));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // no answer began on a reused connection that was reset: safe to ask again (a GET)
      const stale = req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') && !answered;
      reject(Object.assign(err, { reusedSocket: stale }));
    });
  });
}
type Agents = { http: http.Agent; https: https.Agent };

/**
 * Reads the resource an event is about from its owner's public GET, as the gateway would (a signed identity of the
 * company; role `member`, which may read invoices, customers and exports and change nothing here), so the payload
 * is exactly what the integrator's GET shows. Answers null when the resource no longer exists.
 *
 * node:http with keep-alive agents rather than fetch: one GET per event, and fetch cost about a millisecond of CPU
 * each (the owners are internal services, reached under their configured URLs: no address guard applies here).
 */
export function resourceFetcher(urls: OwnerUrls, signer: IdentitySigner, timeoutMs = 5000) {
  const agents: Agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 32 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 32 }),
  };
  // a company's token is used for a while (a third of its lifetime): one signature per company and 20 s, not per event
  const tokens = new Map<CompanyId, { token: Promise<string>; until: number }>();
  const tokenOf = (companyId: CompanyId) => {
    const now = Date.now();
    const kept = tokens.get(companyId);
    if (kept && kept.until > now) return kept.token;
    if (tokens.size > 10_000) tokens.clear();
    const token = signer.sign({ scope: 'company', companyId, keyId: 'webhook-service', role: 'member' });
    tokens.set(companyId, { token, until: now + (IDENTITY_TOKEN_TTL_SECONDS * 1000) / 3 });
    token.catch(() => tokens.delete(companyId));
    return token;
  };
  const get = async (companyId: CompanyId, base: string, path: string): Promise<unknown> => {
    const token = await tokenOf(companyId);
    let res: { status: number; body: string };
    try {
      res = await getOnce(agents, `${base}${path}`, { [IDENTITY_HEADER]: token, accept: 'application/json' }, timeoutMs);
    } catch (err) {
      throw new ResourceUnavailable(`${path}: ${(err as Error).name}`);
    }
    if (res.status === 404) return null;
    if (res.status < 200 || res.status >= 300) throw new ResourceUnavailable(`${path}: HTTP ${res.status}`);
    try {
      return JSON.parse(res.body) as unknown;
    } catch {
      throw new ResourceUnavailable(`${path}: not JSON`);
    }
  };
  const fetchResource = async (companyId: CompanyId, ref: ResourceRef): Promise<unknown> => {
    switch (ref.kind) {
      case 'invoice':
        return get(companyId, urls.INVOICE_URL, `/invoice/${ref.id}`);
      case 'customer':
        return get(companyId, urls.CUSTOMER_URL, `/customer/${ref.id}`);
      case 'export':
        return get(companyId, urls.EXPORT_URL, `/exports/job/${encodeURIComponent(ref.id)}`);
      case 'quota':
        return get(companyId, urls.QUOTA_URL, '/quota/');
      case 'bank_statement':
        return get(companyId, urls.INVOICE_URL, `/bank-statements/${ref.id}`);
      case 'inbound':
        return get(companyId, urls.INBOUND_URL, `/inbound/${ref.id}`);
      case 'recurring':
        return get(companyId, urls.RECURRING_URL, `/recurring-invoices/${ref.id}`);
      case 'email': {
        const list = (await get(companyId, urls.INVOICE_URL, `/invoice/${ref.invoiceId}/emails`)) as { emails?: { id: string }[] } | null;
        return list?.emails?.find((e) => e.id === ref.id) ?? null;
      }
    }
  };
  return Object.assign(fetchResource, {
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}
export type FetchResource = ReturnType<typeof resourceFetcher>;
