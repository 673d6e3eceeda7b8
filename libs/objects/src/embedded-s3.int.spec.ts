import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createObjectStore, startEmbeddedS3 } from './index';

describe('the embedded S3 server with a directory (npm start: <DATA_DIR>/objects)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'inv-objects-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const storeOf = (s3: { endpoint: string; accessKey: string; secretKey: string }) =>
    createObjectStore({ ...s3, bucket: 'invoicing-documents', presignTtlSeconds: 60 });

  it('keeps the bucket and its objects across a restart, and leaves the directory in place', async () => {
    const first = await startEmbeddedS3({ directory: dir });
    try {
      await storeOf(first).ensureBucket();
      await storeOf(first).put('cmp_demo/doc.pdf', Buffer.from('%PDF-1.7 kept'), 'application/pdf');
    } finally {
      await first.stop();
    }
    expect(existsSync(dir)).toBe(true);
    const second = await startEmbeddedS3({ directory: dir });
    try {
      await storeOf(second).ensureBucket(); // as the launcher does on every start
      expect((await storeOf(second).get('cmp_demo/doc.pdf')).toString()).toBe('%PDF-1.7 kept');
    } finally {
      await second.stop();
    }
  });
});
