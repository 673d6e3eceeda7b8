import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbeddedS3 } from '@inv/objects';
import { crashRetryHarness } from '@inv/runtime/testing';
import { defaultKitDir } from './inspection/conformance-kit';

jest.setTimeout(240_000);

const XML = readFileSync(join(defaultKitDir(), 'xrechnung/examples/01.01a-INVOICE_ubl.xml'));

/**
 * The documented retry path for inbound-service's creations: a POST sent with an Idempotency-Key whose service dies
 * right after its commit and that the client sends again with the same key answers the first supplier or document;
 * one exists (a retried upload may leave one object no document refers to: its original, stored before the commit).
 */
describe('idempotent retries across a crash between commit and answer (inbound-service)', () => {
  const company = 'cmp_idembound';
  const s3: { stop: () => Promise<void> } = { stop: async () => undefined };
  const h = crashRetryHarness({
    service: 'inbound',
    company,
    setup: async () => {
      const server = await startEmbeddedS3();
      s3.stop = () => server.stop();
      return { S3_ENDPOINT: server.endpoint, S3_ACCESS_KEY: server.accessKey, S3_SECRET_KEY: server.secretKey };
    },
    teardown: () => s3.stop(),
  });

  it('adds a supplier once; a third send replays the kept answer', async () => {
    const body = { name: 'Lieferant Once GmbH', ibans: ['DE89370400440532013000'] };
    const retry = await h.crashThenRetry('/suppliers/', body, 'supplier-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toMatchObject({ id: expect.any(Number), name: 'Lieferant Once GmbH' });
    expect((await h.stored('invoicing_inbound', 'suppliers', { companyId: company })).map((s) => s.id)).toEqual([retry.body.id]);
    expect(await h.idempotentPost('/suppliers/', body, 'supplier-1')).toEqual(retry);
  });

  it('receives a document once: the retry answers the document stored', async () => {
    const retry = await h.crashThenRetry('/inbound/', XML, 'document-1', 'application/xml');
    expect(retry.status).toBe(202);
    const stored = await h.stored('invoicing_inbound', 'inbound_documents', { companyId: company });
    expect(stored.map((d) => d.id)).toEqual([retry.body.document_id]);
    expect(retry.body).toMatchObject({ id: retry.body.document_id, status: 'queued' });
  });
});
