import { asCompanyId, type Messages } from '@inv/contracts';
import type { AppBus } from '@inv/runtime';
import type { HeldEntry, OutboxMessage } from '@inv/outbox';
import type { ClientSession } from 'mongoose';
import type { z } from 'zod';
import { invoiceKey, type InvoiceDoc } from '../invoices/db/invoices';
import type { JobDoc } from '../invoices/db/jobs';
import type { PaymentDoc } from '../receivables/db/payments';
import type { InvoiceDeps } from '../deps';
import { createLogger, createPeerDataCache } from '@inv/service-kit';
import { draftCache } from '../invoices/db/draft-cache';
import { peerData } from '../platform/peer-data';
import { invoiceSettlement } from '../receivables/usecases/invoice-settlement';

/**
 * In-memory stand-ins for invoice-service's repositories and bus, for unit tests of the use cases (no
 * MongoDB, no RabbitMQ): they keep the repositories' contracts (company-scoped reads, optimistic checks on
 * updatedAt, status preconditions) in a Map, and record what was committed and published.
 */
type Rpc = Messages['rpc'];
type RpcName = keyof Rpc & string;
type RpcRequest<K extends RpcName> = z.output<Rpc[K]['request']>;
type RpcResponse<K extends RpcName> = z.input<Rpc[K]['response']>;
export type RpcHandlers = { [K in RpcName]?: (companyId: string, request: RpcRequest<K>) => RpcResponse<K> | Promise<RpcResponse<K>> };

export const COMPANY = asCompanyId('cmp_test');
export const NOW = new Date('2026-11-20T09:30:00Z');

/** A seller with everything an invoice needs (as account-service answers it). */
export const sellerProfile: RpcResponse<'account.seller-profile.v1'> = {
  found: true,
  seller: {
    name: 'Seller GmbH',
    vatId: 'DE123456789',
    address: { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
    contact: { name: 'Erika Muster', phone: '+49 30 123456', email: 'billing@seller.example' },
    electronicAddress: { scheme: '9930', value: 'DE123456789' },
  },
  payment: { meansCode: '58', iban: 'DE02120300000000202051', bic: 'BYLADEM1001' },
  paymentTermDays: 14,
  smallBusiness: false,
};

/** A buyer with a billing address and a confirmed VAT ID (as customer-service answers it). */
export const billingSnapshot: RpcResponse<'customer.billing-snapshot.v1'> = {
  found: true,
  buyer: {
    name: 'Buyer AG',
    vatId: 'DE987654321',
    address: { line1: 'Marktplatz 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
  },
  hasBillingAddress: true,
  contactType: 'B2B',
  language: 'de',
  vatStatus: 'valid',
};

/** The RPC answers of a healthy system; a test overrides the one it is about. */
export function defaultRpc(): RpcHandlers {
  return {
    'customer.billing-snapshot.v1': (_c, req) =>
      req.customerId === 1 ? billingSnapshot : { found: false, hasBillingAddress: false, vatStatus: 'not_checked' },
    'account.seller-profile.v1': () => sellerProfile,
    'document.template-exists.v1': (_c, req) => ({ exists: req.templateId === 2 }),
    'quota.reserve.v1': () => ({ granted: true, used: 1, limit: 100, reset_date: '2026-12-01', plan: 'pro' }),
  };
}

export interface FakeDeps {
  deps: InvoiceDeps;
  invoices: Map<number, InvoiceDoc>;
  jobs: Map<string, JobDoc>;
  /** Messages emitted inside committed transactions and published without a write, in order. */
  messages: OutboxMessage[];
  /** RPC questions asked, in order. */
  asked: { name: string; companyId: string; request: unknown }[];
  /** Makes the next `times` optimistic writes (setPositions, claimForFinalize) find the invoice changed meanwhile. */
  interfere(times?: number): void;
  /** How often the invoice repository read a single invoice (`get`). */
  reads(): number;
  /** Payments by id (the test company's and others'). */
  payments: Map<number, PaymentDoc>;
}

const clone = <T>(v: T): T => structuredClone(v);

/** `draftCacheMs`: how long the draft cache keeps a copy (0, the default: off, every change reads the draft). */
export function fakeDeps(rpc: RpcHandlers = {}, opts: { draftCacheMs?: number } = {}): FakeDeps {
  const invoices = new Map<number, InvoiceDoc>();
  const jobs = new Map<string, JobDoc>();
  const payments = new Map<number, PaymentDoc>();
  const messages: OutboxMessage[] = [];
  const asked: FakeDeps['asked'] = [];
  const handlers: RpcHandlers = { ...defaultRpc(), ...rpc };
  const counters = new Map<string, number>();
  let sequence = 0;
  let interfering = 0;
  let reads = 0;
  const mine = (companyId: string, id: number) => {
    const inv = invoices.get(id);
    return inv && inv.companyId === companyId ? inv : undefined;
  };
  const draft = (companyId: string, id: number) => {
    const inv = mine(companyId, id);
    return inv && inv.status === 'DRAFT' && !inv.finalizingJobId ? inv : undefined;
  };
  const unchangedSince = (inv: InvoiceDoc | undefined, seen: Date) => {
    if (interfering > 0) {
      interfering--;
      return false;
    }
    return inv !== undefined && inv.updatedAt.getTime() === seen.getTime();
  };
  const session = {} as ClientSession;
  // The bus's RPC call, typed like AppBus's: the fake answers are the contract's response (its input shape, as a
  // server writes it), handed back as what the caller reads.
  const bus: Pick<AppBus, 'callRpc'> = {
    callRpc: async <K extends RpcName>(name: K, companyId: string, request: z.input<Rpc[K]['request']>) => {
      asked.push({ name, companyId, request });
      const handler = handlers[name] as ((c: string, r: unknown) => unknown) | undefined;
      if (!handler) throw new Error(`no fake answer for RPC ${name}`);
      return (await handler(companyId, request)) as z.output<Rpc[K]['response']>;
    },
  };

  const invoicesRepo = {
    get: async (companyId: string, id: number) => {
      reads++;
      return clone(mine(companyId, id) ?? null);
    },
    insert: async (doc: Omit<InvoiceDoc, '_id'>) => {
      if ([...invoices.values()].some((i) => i.companyId === doc.companyId && i.number === doc.number))
        throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
      invoices.set(doc.id, clone({ _id: invoiceKey(doc.companyId, doc.id), ...doc }));
    },
    numberTaken: async (companyId: string, number: string) =>
      [...invoices.values()].some((i) => i.companyId === companyId && i.number === number),
    setPositions: async (
      companyId: string,
      id: number,
      seen: Pick<InvoiceDoc, 'updatedAt' | 'taxTreatmentId'>,
      set: Pick<InvoiceDoc, 'positions' | 'grossCents' | 'updatedAt'>,
    ) => {
      const inv = draft(companyId, id);
      if (!unchangedSince(inv, seen.updatedAt) || !inv || (inv.taxTreatmentId ?? null) !== (seen.taxTreatmentId ?? null)) return false;
      Object.assign(inv, clone(set));
      return true;
    },
    updateDraft: async (companyId: string, id: number, set: Partial<InvoiceDoc>) => {
      const inv = draft(companyId, id);
      if (!inv) return false;
      Object.assign(inv, clone(set));
      return true;
    },
    noteAttachmentUpload: async (companyId: string, id: number) => {
      const inv = mine(companyId, id);
      if (inv?.attachmentsUploaded === false) inv.attachmentsUploaded = true;
    },
    cancelDraft: async (companyId: string, id: number, now: Date) => {
      const inv = draft(companyId, id);
      if (!inv) return false;
      Object.assign(inv, { status: 'CANCELLED', cancelledAt: now, updatedAt: now });
      return true;
    },
    moveStatus: async (companyId: string, id: number, from: InvoiceDoc['status'], set: Partial<InvoiceDoc>) => {
      const inv = mine(companyId, id);
      if (!inv || inv.status !== from) return false;
      Object.assign(inv, clone(set));
      return true;
    },
    settle: async (
      companyId: string,
      id: number,
      seen: Pick<InvoiceDoc, 'status' | 'paidCents' | 'discountCents' | 'creditSettledCents'>,
      set: Partial<InvoiceDoc>,
      unset: Array<keyof InvoiceDoc>,
    ) => {
      const inv = mine(companyId, id);
      if (!inv || inv.status !== seen.status) return false;
      if ((inv.paidCents ?? 0) !== (seen.paidCents ?? 0) || (inv.discountCents ?? 0) !== (seen.discountCents ?? 0)) return false;
      if ((inv.creditSettledCents ?? 0) !== (seen.creditSettledCents ?? 0)) return false;
      Object.assign(inv, clone(set));
      for (const k of unset) delete inv[k];
      return true;
    },
    claimForFinalize: async (companyId: string, id: number, seen: Date, jobId: string, frozen: Partial<InvoiceDoc>) => {
      const inv = draft(companyId, id);
      if (!unchangedSince(inv, seen) || !inv) return false;
      Object.assign(inv, clone(frozen), { finalizingJobId: jobId });
      return true;
    },
  };

  const deps = {
    invoices: invoicesRepo,
    drafts: draftCache({ ttlMs: opts.draftCacheMs ?? 0 }),
    jobs: { insert: async (job: JobDoc) => void jobs.set(job._id, clone(job)) },
    attachments: { ofInvoice: async () => [] },
    products: { get: async () => null },
    payments: {
      get: async (companyId: string, id: number) => {
        const p = payments.get(id);
        return p && p.companyId === companyId ? clone(p) : null;
      },
      insert: async (doc: Omit<PaymentDoc, '_id'>) => void payments.set(doc.id, clone({ _id: `${doc.companyId}:${doc.id}`, ...doc })),
      reverse: async (companyId: string, invoiceId: number, id: number, now: Date) => {
        const p = payments.get(id);
        if (!p || p.companyId !== companyId || p.invoiceId !== invoiceId || p.reversedAt || p.exportedAt) return null;
        p.reversedAt = now;
        return clone(p);
      },
      markExported: async (companyId: string, ids: number[], jobId: string, now: Date) => {
        let n = 0;
        for (const id of ids) {
          const p = payments.get(id);
          if (!p || p.companyId !== companyId || p.exportedAt) continue;
          Object.assign(p, { exportedAt: now, exportJobId: jobId });
          n++;
        }
        return n;
      },
    },
    numbering: {
      ensure: async () => undefined,
      ensureExists: async () => undefined,
      take: async () => ({ seq: { pattern: 'RE-{YYYY}-{SEQ:5}' }, value: ++sequence }),
    },
    counters: {
      next: async (name: string) => {
        const next = (counters.get(name) ?? 0) + 1;
        counters.set(name, next);
        return next;
      },
    },
    positionIds: async (companyId: string) => {
      const next = (counters.get(`position:${companyId}`) ?? 0) + 1;
      counters.set(`position:${companyId}`, next);
      return next;
    },
    bus,
    commit: async <T>(work: (s: ClientSession, emit: (...m: OutboxMessage[]) => void) => Promise<T>): Promise<T> => {
      const emitted: OutboxMessage[] = [];
      const result = await work(session, (...m) => emitted.push(...m));
      messages.push(...emitted); // only a transaction that completed writes its messages
      return result;
    },
    publish: async (...m: OutboxMessage[]) => void messages.push(...m),
    // messages kept in a draft with its change: recorded like the ones published, once the write succeeded
    handOver: (entries: HeldEntry[]) =>
      void messages.push(
        ...entries.map(({ kind, type, companyId, data, actor }) => ({ kind, type, companyId, data, ...(actor ? { actor } : {}) })),
      ),
    defaultTemplateId: 1,
    now: () => NOW,
  };
  // no Redis here: every lookup asks the fake RPCs (the cache itself: libs/service-kit peer-data.int.spec.ts)
  const peers = peerData(bus, createPeerDataCache({ ttlMs: 0, max: 1, logger: createLogger('test', 'silent') }));
  const all = { ...deps, peers } as unknown as InvoiceDeps;
  all.settlement = invoiceSettlement(() => all);
  return {
    deps: all,
    invoices,
    jobs,
    messages,
    asked,
    interfere: (times = 1) => void (interfering = times),
    reads: () => reads,
    payments,
  };
}

/** A stored draft of the test company (customer 1) with the given positions. */
export function storedDraft(f: FakeDeps, id: number, overrides: Partial<InvoiceDoc> = {}): InvoiceDoc {
  const fields: Omit<InvoiceDoc, '_id' | 'id'> = {
    companyId: COMPANY,
    customerId: 1,
    status: 'DRAFT',
    number: `RE-2026-${String(id).padStart(5, '0')}`,
    typeCode: '380',
    format: 'ZUGFERD',
    positions: [],
    createdAt: new Date('2026-11-01T08:00:00Z'),
    updatedAt: new Date('2026-11-01T08:00:00Z'),
    ...overrides,
  };
  const inv: InvoiceDoc = { _id: invoiceKey(fields.companyId, id), id, ...fields };
  f.invoices.set(id, structuredClone(inv));
  return inv;
}

export const position = (id: number, overrides: Partial<InvoiceDoc['positions'][number]> = {}): InvoiceDoc['positions'][number] => ({
  id,
  title: `Position ${id}`,
  quantity: '2',
  unitCode: 'HUR',
  unitPrice: '100.00',
  taxRate: '0.19',
  taxTreatmentId: 'standard',
  ...overrides,
});
