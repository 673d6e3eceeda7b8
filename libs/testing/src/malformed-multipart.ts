import { connect } from 'node:net';

/** One hostile multipart/form-data request body: what an upload route must answer with a 4xx and survive. */
export interface MalformedMultipart {
  name: string;
  contentType: string;
  body: Buffer;
  /** Close the connection after sending the body instead of waiting for the answer (a client gone mid-upload). */
  abort?: boolean;
  /** Content-Length to declare when it is not the body's (a body cut short by the client). */
  declaredLength?: number;
}

const B = 'x-hostile-boundary';
const CT = `multipart/form-data; boundary=${B}`;
const part = (name: string, filename?: string, type = 'application/octet-stream') =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
  (filename ? `Content-Type: ${type}\r\n` : '') +
  '\r\n';

/**
 * Truncated and malformed multipart bodies, each a way a parser's streams can end in an error (the file part
 * without its closing boundary is 117 bytes and once took a service down: busboy destroyed the file stream with
 * "Unexpected end of form" and nothing listened). Every upload route gets all of them in its hostile-input test.
 */
export function malformedMultipartBodies(fileField = 'file', type = 'application/pdf'): MalformedMultipart[] {
  const file = part(fileField, 'a.pdf', type);
  const b = (s: string | Buffer) => (Buffer.isBuffer(s) ? s : Buffer.from(s, 'latin1'));
  return [
    { name: 'file part without its closing boundary', contentType: CT, body: b(`${file}%PDF-1.4 abc`) },
    { name: 'file part ending in a partial boundary', contentType: CT, body: b(`${file}%PDF-1.4 abc\r\n--${B.slice(0, 5)}`) },
    { name: 'file part cut after the boundary line', contentType: CT, body: b(`--${B}\r\n`) },
    {
      name: 'part headers without their blank line',
      contentType: CT,
      body: b(`--${B}\r\nContent-Disposition: form-data; name="${fileField}"`),
    },
    { name: 'part header line of 100 KB', contentType: CT, body: b(`--${B}\r\nX-Long: ${'a'.repeat(100_000)}\r\n\r\nx\r\n--${B}--\r\n`) },
    { name: 'malformed part header', contentType: CT, body: b(`--${B}\r\nno colon here\r\n\r\nx\r\n--${B}--\r\n`) },
    { name: 'a field, then a truncated file', contentType: CT, body: b(`${part('description')}text\r\n${file}%PDF-1.4`) },
    { name: 'a truncated field', contentType: CT, body: b(`${part('description')}text without end`) },
    { name: 'two files, the second truncated', contentType: CT, body: b(`${file}%PDF-1.4\r\n${part(fileField, 'b.pdf', type)}%PDF`) },
    { name: 'another file field, truncated', contentType: CT, body: b(`${part('other', 'c.pdf', type)}%PDF-1.4`) },
    { name: 'body with another boundary', contentType: CT, body: b(`--other\r\n${file.slice(2 + B.length + 2)}%PDF\r\n--other--\r\n`) },
    { name: 'no boundary parameter', contentType: 'multipart/form-data', body: b(`${file}%PDF\r\n--${B}--\r\n`) },
    { name: 'empty boundary parameter', contentType: 'multipart/form-data; boundary=', body: b(`--\r\n\r\nx\r\n----\r\n`) },
    { name: 'boundary of 200 characters', contentType: `multipart/form-data; boundary=${'b'.repeat(200)}`, body: b('x') },
    { name: 'empty body', contentType: CT, body: Buffer.alloc(0) },
    { name: 'binary garbage', contentType: CT, body: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)) },
    { name: 'only the closing boundary', contentType: CT, body: b(`--${B}--\r\n`) },
    {
      name: 'filename* with a broken charset',
      contentType: CT,
      body: b(`--${B}\r\nContent-Disposition: form-data; name="${fileField}"; filename*=bogus''%ZZ%\r\n\r\n%PDF\r\n--${B}--\r\n`),
    },
    {
      name: 'multipart/mixed inside the file part',
      contentType: CT,
      body: b(`${part(fileField, 'a.pdf', 'multipart/mixed; boundary=inner')}--inner\r\n\r\nx\r\n--inner`),
    },
    {
      name: 'client gone after half of the file',
      contentType: CT,
      body: b(`${file}%PDF-1.4 ${'x'.repeat(64 * 1024)}`),
      abort: true,
      declaredLength: 1_000_000,
    },
    {
      name: 'Content-Length longer than the body, then the end',
      contentType: CT,
      body: b(`${file}%PDF-1.4 abc`),
      declaredLength: 5000,
      abort: true,
    },
  ];
}

/**
 * Sends one request as raw bytes over a fresh TCP connection (no client library rewrites a malformed body) and
 * answers the status line's code, or 0 when the connection ended without an answer (expected for `abort`).
 */
export function sendRawRequest(
  url: string,
  path: string,
  headers: Record<string, string>,
  m: Pick<MalformedMultipart, 'body' | 'contentType' | 'abort' | 'declaredLength'>,
  timeoutMs = 10_000,
): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => {
      const head = [
        `POST ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        `Content-Type: ${m.contentType}`,
        `Content-Length: ${m.declaredLength ?? m.body.length}`,
        'Connection: close',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      // the body in pieces, split after each part's headers, with a pause between them: a parser then starts a
      // part's stream before its end arrives (a body sent in one piece hides errors emitted on such a stream)
      void (async () => {
        for (const piece of piecesOf(m.body)) {
          if (socket.destroyed) return;
          await new Promise<void>((ok) => socket.write(piece, () => ok()));
          await new Promise((r) => setTimeout(r, 15));
        }
        if (m.abort) {
          socket.destroy();
          clearTimeout(timer);
          resolve(0);
        }
      })();
    });
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve(status ? Number(status[1]) : 0);
    });
  });
}

/** The body split after each blank line (the end of a part's headers) and into pieces of at most 16 KiB. */
function piecesOf(body: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  let start = 0;
  for (let at = body.indexOf('\r\n\r\n'); at >= 0; at = body.indexOf('\r\n\r\n', at + 4)) {
    pieces.push(body.subarray(start, at + 4));
    start = at + 4;
  }
  pieces.push(body.subarray(start));
  return pieces.flatMap((p) => Array.from({ length: Math.ceil(p.length / 16384) }, (_, i) => p.subarray(i * 16384, (i + 1) * 16384)));
}
