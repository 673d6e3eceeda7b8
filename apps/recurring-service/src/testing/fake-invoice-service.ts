import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createIdentityVerifier, IDENTITY_HEADER } from '@inv/service-kit';

export interface FakeInvoice {
  id: number;
  customer_id: number;
  status: 'DRAFT' | 'OPEN' | 'SENT';
  invoice_format: string;
  buyer_reference: string | null;
  benefit_period_start: string | null;
  benefit_period_end: string | null;
  meta: unknown;
  note: string | null;
  positions: unknown[];
  emails: { id: string; to: unknown }[];
  createdSeq: number;
}

export interface FakeCall {
  companyId: string;
  method: string;
  path: string;
  body: unknown;
}

/**
 * invoice-service's HTTP API as far as a recurring run uses it (create a draft, add positions, list drafts,
 * finalization job and its poll, send e-mail), answering as the real routes do. It verifies the signed identity
 * (as every service does) and keeps invoices per company. `hold` lets a test keep a request open after its
 * effect, to play a crash between the effect and the answer; `quota` refuses finalizations with 402.
 *
 * POST /invoice/validate and finalization apply two of the real rules: customer 404 (and any in `deletedCustomers`,
 * `company:customer`) does not exist, and an XRECHNUNG needs a buyer reference (BR-DE-15), its own or the customer's
 * (`buyerReferences`, `company:customer`, copied into a draft at its creation as invoice-service does).
 */
export async function startFakeInvoiceService(identityKey: string, port = 0) {
  const verifier = createIdentityVerifier([identityKey]);
  const invoices = new Map<string, FakeInvoice[]>();
  const quota = new Map<string, number>();
  /** `company:customer` → the customer's buyer reference (Leitweg-ID). */
  const buyerReferences = new Map<string, string>();
  /** `company:customer` of customers deleted since. */
  const deletedCustomers = new Set<string>();
  const calls: FakeCall[] = [];
  const held = new Set<ServerResponse>();
  const failedJobs = new Set<string>();
  let seq = 0;
  const state = {
    /** Hold the answer of calls matching this (the effect still happens). */
    hold: undefined as ((c: FakeCall) => boolean) | undefined,
    /** Milliseconds each answer waits (widens races between replicas). */
    delayMs: 0,
    /** POST /invoice/validate answers 503 (invoice-service down for the check). */
    validateDown: false,
    /** Finalization jobs of these companies fail (the render failed): GET job answers failed. */
    failJobsOf: new Set<string>(),
  };
  const customerExists = (companyId: string, customerId: number) =>
    customerId !== 404 && !deletedCustomers.has(`${companyId}:${customerId}`);
  const BR_DE_15 = {
    field: 'buyerReference',
    rule: 'BR-DE-15',
    message: 'XRechnung needs the buyer reference (Leitweg-ID for public buyers).',
  };
  /** What GET /invoice/{id}/validate would report for these invoice fields (the two rules played here). */
  const findings = (companyId: string, inv: { customer_id: number; invoice_format: string; buyer_reference: string | null }) => [
    ...(customerExists(companyId, inv.customer_id)
      ? []
      : [{ field: 'customer_id', rule: 'CUSTOMER_EXISTS', message: `customer ${inv.customer_id} does not exist` }]),
    ...(inv.invoice_format === 'XRECHNUNG' && !inv.buyer_reference ? [BR_DE_15] : []),
  ];
  const ofCompany = (c: string) => invoices.get(c) ?? (invoices.set(c, []), invoices.get(c)!);
  const problem = (status: number, code: string, detail: string) => ({
    status,
    body: { type: `https://example.test/problems/${code}`, title: code, status, detail, message: detail, code },
  });

  const handle = (call: FakeCall): { status: number; body: unknown } => {
    const list = ofCompany(call.companyId);
    const url = new URL(call.path, 'http://fake');
    const parts = url.pathname.split('/').filter(Boolean); // ['invoice', id?, sub?, subId?]
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (parts[0] !== 'invoice') return problem(404, 'NOT_FOUND', 'no route');
    if (parts[1] === 'validate' && call.method === 'POST') {
      if (state.validateDown) return problem(503, 'SERVICE_UNAVAILABLE', 'a service this request depends on is unavailable');
      const customerId = Number(body.customer_id);
      const errors = findings(call.companyId, {
        customer_id: customerId,
        invoice_format: String(body.invoice_format ?? 'ZUGFERD'),
        buyer_reference: (body.buyer_reference as string) ?? buyerReferences.get(`${call.companyId}:${customerId}`) ?? null,
      });
      return {
        status: 200,
        body: {
          valid: errors.length === 0,
          errors,
          warnings: [],
          checks: [],
          vat_check: { status: 'valid' },
          vat_override_required: false,
        },
      };
    }
    if (parts.length === 1 && call.method === 'POST') {
      const inv: FakeInvoice = {
        id: list.length + 1,
        customer_id: Number(body.customer_id),
        status: 'DRAFT',
        invoice_format: String(body.invoice_format ?? 'ZUGFERD'),
        buyer_reference: (body.buyer_reference as string) ?? buyerReferences.get(`${call.companyId}:${Number(body.customer_id)}`) ?? null,
        benefit_period_start: (body.benefit_period_start as string) ?? null,
        benefit_period_end: (body.benefit_period_end as string) ?? null,
        meta: body.meta ?? null,
        note: (body.note as string) ?? null,
        positions: [],
        emails: [],
        createdSeq: ++seq,
      };
      if (!customerExists(call.companyId, inv.customer_id))
        return problem(400, 'VALIDATION_ERROR', `customer_id: customer ${inv.customer_id} not found`);
      list.push(inv);
      return { status: 201, body: { message: 'invoice created', invoice_id: inv.id, id: inv.id } };
    }
    if (parts.length === 1 && call.method === 'GET') {
      const status = url.searchParams.get('status');
      const customer = url.searchParams.get('customer_id');
      const found = list
        .filter((i) => (!status || i.status === status) && (!customer || i.customer_id === Number(customer)))
        .sort((a, b) => b.createdSeq - a.createdSeq)
        .slice(0, Number(url.searchParams.get('limit') ?? 25));
      return { status: 200, body: { invoices: found.map(({ positions: _p, emails: _e, ...rest }) => rest), total: found.length } };
    }
    const inv = list.find((i) => i.id === Number(parts[1]));
    if (!inv) return problem(404, 'NOT_FOUND', `invoice ${parts[1]} not found`);
    const sub = parts[2];
    if (!sub && call.method === 'GET') return { status: 200, body: inv };
    if (!sub && call.method === 'PUT') {
      if (inv.status !== 'DRAFT') return problem(409, 'INVOICE_NOT_DRAFT', `invoice ${inv.id} is no longer a draft`);
      if (typeof body.invoice_format === 'string') inv.invoice_format = body.invoice_format;
      if (typeof body.buyer_reference === 'string') inv.buyer_reference = body.buyer_reference;
      if (typeof body.note === 'string') inv.note = body.note;
      return { status: 200, body: { message: 'invoice updated', ...inv } };
    }
    if (sub === 'positions' && call.method === 'POST') {
      if (inv.status !== 'DRAFT') return problem(409, 'INVOICE_NOT_DRAFT', 'not a draft');
      inv.positions.push(body);
      return { status: 201, body: { message: 'position added', id: inv.positions.length } };
    }
    if (sub === 'job' && call.method === 'POST') {
      if (inv.status !== 'DRAFT') return problem(409, 'INVOICE_NOT_DRAFT', `invoice ${inv.id} is ${inv.status}`);
      const refused = findings(call.companyId, inv);
      if (refused.length) {
        const detail = `the invoice cannot be finalized: ${refused.map((e) => e.message).join('; ')}`;
        const p = problem(422, 'INVOICE_NOT_VALID', detail);
        return { status: 422, body: { ...p.body, errors: refused.map((e) => ({ path: e.field, ...e })) } };
      }
      const left = quota.get(call.companyId) ?? Infinity;
      if (left <= 0) return problem(402, 'INVOICE_LIMIT_REACHED', 'monthly invoice limit of 3 reached; it resets on 2027-01-01');
      quota.set(call.companyId, left - 1);
      const jobId = `job-${inv.id}-${++seq}`;
      if (state.failJobsOf.has(call.companyId)) {
        failedJobs.add(jobId);
        return { status: 201, body: { message: 'finalization job queued', job_id: jobId } };
      }
      inv.status = 'OPEN';
      return { status: 201, body: { message: 'finalization job queued', job_id: jobId } };
    }
    if (sub === 'job' && call.method === 'GET') {
      if (failedJobs.has(parts[3]))
        return {
          status: 200,
          body: { job_id: parts[3], status: 'failed', invoice_id: inv.id, error_message: 'rendering failed: font missing' },
        };
      return { status: 200, body: { job_id: parts[3], status: 'finished', invoice_id: inv.id } };
    }
    if (sub === 'send_email' && call.method === 'POST') {
      const email = { id: `mail-${inv.id}-${inv.emails.length + 1}`, to: body.to };
      inv.emails.push(email);
      inv.status = 'SENT';
      return { status: 202, body: { message: 'e-mail queued', email_id: email.id } };
    }
    if (sub === 'emails' && call.method === 'GET') return { status: 200, body: { emails: inv.emails } };
    return problem(404, 'NOT_FOUND', 'no route');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const send = (status: number, body: unknown) =>
        void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      let companyId: string;
      try {
        const identity = await verifier.verify(req.headers[IDENTITY_HEADER] as string | undefined);
        companyId = identity.companyId!;
      } catch {
        return send(401, { code: 'UNAUTHENTICATED' });
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const call: FakeCall = { companyId, method: req.method ?? 'GET', path: req.url ?? '/', body: text ? JSON.parse(text) : undefined };
      calls.push(call);
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      const answer = handle(call);
      if (state.hold?.(call)) {
        held.add(res);
        return;
      }
      send(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    calls,
    quota,
    buyerReferences,
    deletedCustomers,
    invoicesOf: (companyId: string) => ofCompany(companyId),
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FakeInvoiceService = Awaited<ReturnType<typeof startFakeInvoiceService>>;
