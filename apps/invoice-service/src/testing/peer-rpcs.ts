import type { Bus } from '@inv/bus';
import type { Messages } from '@inv/contracts';
import { untypedBus } from '@inv/runtime';
import type { RpcHandlers } from './fake-deps';

/**
 * The answers the other services give invoice-service, served on a test peer bus for the integration tests that
 * run the real service: a seller with an account, a buyer with a billing address whose VAT ID was not checked,
 * quota left, every template known. A test passes the answers it is about; the others stay these.
 */
export const peerSellerProfile = {
  found: true,
  seller: {
    name: 'Seller GmbH',
    vatId: 'DE123456789',
    address: { line1: 'Str 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
  },
  payment: { meansCode: '58', iban: 'DE02120300000000202051' },
  paymentTermDays: 14,
} as const;
export const peerBillingSnapshot = {
  found: true,
  hasBillingAddress: true,
  buyer: { name: 'Buyer AG', address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' } },
  language: 'de',
  vatStatus: 'not_checked',
} as const;

export function servePeerRpcs(peer: Bus<Messages>, overrides: RpcHandlers = {}): void {
  const handlers: RpcHandlers = {
    'account.seller-profile.v1': () => peerSellerProfile,
    'customer.billing-snapshot.v1': () => peerBillingSnapshot,
    'quota.reserve.v1': () => ({ granted: true, used: 1, limit: 100, reset_date: '2026-12-01', plan: 'pro' }),
    'document.template-exists.v1': () => ({ exists: true }),
    ...overrides,
  };
  for (const [type, handler] of Object.entries(handlers)) {
    const answer = handler as (companyId: string, request: unknown) => unknown;
    // the table is keyed by RPC type at run time: served through the bus's untyped view (which still validates)
    untypedBus(peer).serveRpc(type, async (msg) => answer(msg.companyId, msg.data));
  }
}

/**
 * document-service as the integration tests stand it in: every render command is answered rendered, its PDF a
 * 10-byte stand-in stored under the usual key when a `store` is given (tests that read or send the PDF need it).
 */
export function serveStubRenderer(
  peer: Bus<Messages>,
  store?: { put(key: string, body: Buffer, contentType: string): Promise<unknown> },
): void {
  peer.onCommand('document.render-invoice.v1', async (msg) => {
    const { jobId, invoiceId } = msg.data;
    const key = `${msg.companyId}/invoices/${invoiceId}/invoice.pdf`;
    if (store) await store.put(key, Buffer.from('%PDF-1.7 x'), 'application/pdf');
    await peer.publishEvent('document.rendered.v1', msg.companyId, {
      jobId,
      invoiceId,
      pdf: { key, filename: 'invoice.pdf', contentType: 'application/pdf', size: 10 },
    });
  });
}
