import { startEmbeddedS3 } from '@inv/objects';
import { crashRetryHarness } from '@inv/runtime/testing';

jest.setTimeout(240_000);

/**
 * The documented retry path for export-service: POST /exports/job sent with an Idempotency-Key whose service dies
 * right after its commit and that the client sends again with the same key answers the first job; one job exists.
 */
describe('idempotent retries across a crash between commit and answer (export-service)', () => {
  const company = 'cmp_idemexport';
  const s3: { stop: () => Promise<void> } = { stop: async () => undefined };
  const h = crashRetryHarness({
    service: 'export',
    company,
    setup: async () => {
      const server = await startEmbeddedS3();
      s3.stop = () => server.stop();
      return { S3_ENDPOINT: server.endpoint, S3_ACCESS_KEY: server.accessKey, S3_SECRET_KEY: server.secretKey };
    },
    teardown: () => s3.stop(),
  });

  it('queues an export job once; a third send replays the kept answer', async () => {
    expect((await h.call('PUT', '/acctexp/config', { consultant_number: 29098, client_number: 55003 })).status).toBe(200);
    const body = {
      task: 'process_acctexp_export_job',
      start_date: '2025-01-01',
      end_date: '2025-12-31',
      include_master_data: false,
      include_documents: false,
      only_new: false,
    };
    const retry = await h.crashThenRetry('/exports/job', body, 'export-1');
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    expect(retry.body).toEqual({ message: 'export job queued', job_id: expect.any(String) });
    expect((await h.stored('invoicing_export', 'export_jobs', { companyId: company })).map((j) => j._id)).toEqual([retry.body.job_id]);
    expect((await h.call('GET', `/exports/job/${retry.body.job_id}`)).status).toBe(200);
    expect(await h.idempotentPost('/exports/job', body, 'export-1')).toEqual(retry);
  });
});
