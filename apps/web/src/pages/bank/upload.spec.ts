import { request } from 'node:http';
import express from 'express';
import { BANK_STATEMENT_MAX_BYTES } from '@inv/contracts';
import { pageHarness, TEST_CSRF } from '../../testing/page-harness';
import { registerBankStatementPages } from './bank.pages';
import { readUpload } from './upload';

async function withApp(max: number, run: (url: string) => Promise<void>) {
  const app = express();
  app.post('/', async (req, res) => void res.json(await readUpload(req, max)));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    await run(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  } finally {
    await new Promise((r) => server.close(r));
  }
}
const form = (fields: [string, string | Blob, string?][]) => {
  const f = new FormData();
  for (const [k, v, name] of fields)
    if (typeof v === 'string') f.append(k, v);
    else f.append(k, v, name);
  return f;
};
const post = async (url: string, body: FormData) => (await fetch(url, { method: 'POST', body })).json();

describe('reading an upload', () => {
  it('reads the file with its name and the form fields', async () => {
    await withApp(100, async (url) => {
      const got = await post(
        url,
        form([
          ['csrf', 'c'],
          ['idem', 'i'],
          ['file', new Blob(['<x/>']), 'a.xml'],
        ]),
      );
      expect(got).toEqual({
        ok: true,
        fields: { csrf: 'c', idem: 'i' },
        file: { bytes: { type: 'Buffer', data: [...Buffer.from('<x/>')] }, filename: 'a.xml' },
      });
    });
  });

  it('cuts a file past the bound, and refuses unknown fields, a second file and a long field', async () => {
    await withApp(100, async (url) => {
      expect(await post(url, form([['file', new Blob(['x'.repeat(101)]), 'a.xml']]))).toEqual({ ok: false, reason: 'too_large' });
      expect(await post(url, form([['file', new Blob(['x'.repeat(100)]), 'a.xml']]))).toMatchObject({ ok: true });
      expect(await post(url, form([['other', 'x']]))).toEqual({ ok: false, reason: 'malformed' });
      expect(
        await post(
          url,
          form([
            ['file', new Blob(['a']), 'a.xml'],
            ['file', new Blob(['b']), 'b.xml'],
          ]),
        ),
      ).toEqual({ ok: false, reason: 'malformed' });
      expect(await post(url, form([['csrf', 'x'.repeat(300)]]))).toEqual({ ok: false, reason: 'malformed' });
      expect(await post(url, form([['attachment', new Blob(['a']), 'a.xml']]))).toEqual({ ok: false, reason: 'malformed' });
    });
  });

  it('answers an upload announced larger than a statement may be with 413 before reading it, without calling the API', async () => {
    const h = await pageHarness({
      register: registerBankStatementPages,
      lang: 'de',
      api: () => ({ status: 200, body: { bank_statements: [], total: 0, page: 1, limit: 25 } }),
    });
    try {
      const { port } = new URL(h.url);
      const status = await new Promise<{ code: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/app/bank-statements',
            method: 'POST',
            headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(BANK_STATEMENT_MAX_BYTES + 128 * 1024) },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ code: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.write(`--x\r\ncontent-disposition: form-data; name="csrf"\r\n\r\n${TEST_CSRF}\r\n`);
      });
      expect(status.code).toBe(413);
      expect(status.body).toContain('Die Datei ist zu groß');
      expect(h.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});
