import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { checkedTestCompanyPrefix } from './test-company-prefix';

export interface ObjectStoreOptions {
  /** e.g. http://127.0.0.1:4568 (S3_ENDPOINT). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
  /** Lifetime of presigned GET links in seconds (PRESIGNED_URL_TTL_SECONDS, default 300). */
  presignTtlSeconds: number;
  /** Public base URL to put in presigned links when clients reach storage under another address. */
  publicEndpoint?: string;
}

export interface ObjectStore {
  ensureBucket(): Promise<void>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** Streams an object of unknown size into storage (multipart upload above one part): never whole in memory. */
  putStream(key: string, body: Readable, contentType: string): Promise<void>;
  getStream(key: string): Promise<Readable>;
  /** Uploads a file from disk as one streamed PUT with its length: memory stays flat whatever the size. */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /**
   * Removes every object whose key starts with `prefix`, a test twin's folder only (`test~<company>/`, checked by
   * `checkedTestCompanyPrefix`: never empty, never another company's, never outside the bucket's root): lists a page
   * (`pageSize` keys, default 1000, S3's most) and deletes it in one batch request, until none is left. Answers
   * how many objects it removed; a repeat removes nothing and succeeds.
   */
  removePrefix(prefix: string, opts?: { pageSize?: number }): Promise<number>;
  /** Presigned GET link; `downloadName` sets Content-Disposition so browsers save it under that name. */
  presignGet(key: string, downloadName?: string): Promise<string>;
}

/**
 * `Content-Disposition: attachment` for a download name, in ASCII only (RFC 6266): an ASCII fallback in
 * `filename` and the exact name percent-encoded as UTF-8 in `filename*` (RFC 8187). A name outside Latin-1
 * in a header value made the storage server answer 500 (Node refuses such header values), and a Latin-1
 * name reached browsers as mojibake. Control characters, bidirectional overrides and lone surrogates are dropped.
 */
export function attachmentDisposition(name: string): string {
  const clean = Array.from(name)
    .filter((c) => !/^[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]$/.test(c)) // a pair is two units: not matched
    .join('');
  let ascii = clean
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\%]/g, '_')
    .trim();
  if (!ascii || ascii.startsWith('.')) ascii = `download${ascii}`;
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return ascii === clean ? `attachment; filename="${ascii}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Idle keep-alive sockets are dropped after 4 s, before a Node server's default 5 s keepAliveTimeout
 * closes them: otherwise a request can be written onto a socket the server is closing at that moment
 * and fail with ECONNRESET (seen on a loaded machine). minio's default is Node's global agent.
 */
const IDLE_SOCKET_MS = 4_000;

function clientFor(endpointUrl: string, opts: ObjectStoreOptions): Client {
  const url = new URL(endpointUrl);
  const https = url.protocol === 'https:';
  const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS };
  return new Client({
    transportAgent: https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions),
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
    useSSL: url.protocol === 'https:',
    accessKey: opts.accessKey,
    secretKey: opts.secretKey,
    region: opts.region ?? 'us-east-1',
    pathStyle: true,
  });
}

/**
 * Runs an idempotent request (a buffered GET or PUT, a HEAD, a DELETE) once more when its socket was reset:
 * a keep-alive socket can be closed by the server just as a request is written onto it, which fails with
 * ECONNRESET/EPIPE before the server saw anything (seen with the embedded S3 server on a loaded CI machine).
 * One immediate retry on a fresh socket is what HTTP clients do for idempotent requests; it is not a
 * backoff policy (callers and the bus retry real outages), hence no retry library here.
 */
async function onceMoreIfReset<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ECONNRESET' && code !== 'EPIPE') throw err;
    return request();
  }
}

/** Part size of streamed uploads: S3's minimum is 5 MiB; memory use is bounded by one part. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;

/**
 * Streams into storage with minio's own multipart calls, one bounded part at a time. Not minio's
 * `putObject(stream)`: that first lists incomplete uploads to resume one (ListMultipartUploads, which the
 * embedded s3rver does not implement) and buffers 64 MiB parts. Below one part it is a single PUT.
 */
async function uploadInParts(client: Client, bucket: string, key: string, body: Readable, contentType: string) {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let uploadId: string | undefined;
  const etags: { part: number; etag?: string }[] = [];
  const flush = async () => {
    const part = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    uploadId ??= await client.initiateNewMultipartUpload(bucket, key, { 'Content-Type': contentType });
    const partNumber = etags.length + 1;
    const res = await client.uploadPart(
      { bucketName: bucket, objectName: key, uploadID: uploadId, partNumber, headers: { 'Content-Length': part.length } },
      part,
    );
    etags.push({ part: partNumber, etag: res.etag });
  };
  try {
    for await (const chunk of body) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      pending.push(buf);
      pendingBytes += buf.length;
      if (pendingBytes >= UPLOAD_PART_BYTES) await flush();
    }
    if (!uploadId) {
      const whole = Buffer.concat(pending, pendingBytes);
      await client.putObject(bucket, key, whole, whole.length, { 'Content-Type': contentType });
      return;
    }
    if (pendingBytes > 0) await flush();
    await client.completeMultipartUpload(bucket, key, uploadId, etags);
  } catch (err) {
    if (uploadId) await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
    body.destroy();
    throw err;
  }
}

/** S3 object storage through the `minio` client (MinIO in production, s3rver locally). */
export function createObjectStore(opts: ObjectStoreOptions): ObjectStore {
  const client = clientFor(opts.endpoint, opts);
  // Presigning is pure computation (no request), so a second client signs links for the public address.
  const signer = opts.publicEndpoint ? clientFor(opts.publicEndpoint, opts) : client;
  return {
    async ensureBucket() {
      if (await client.bucketExists(opts.bucket)) return;
      try {
        await client.makeBucket(opts.bucket, opts.region ?? 'us-east-1');
      } catch (err) {
        // Services start together and share the bucket: another one may have just created it (S3 answers
        // BucketAlreadyExists; s3rver may also fail its own racing mkdir). Whatever the error, a bucket that
        // exists now is what was wanted.
        if (await client.bucketExists(opts.bucket).catch(() => false)) return;
        throw err;
      }
    },
    async put(key, body, contentType) {
      await onceMoreIfReset(() => client.putObject(opts.bucket, key, body, body.length, { 'Content-Type': contentType }));
    },
    async putStream(key, body, contentType) {
      await uploadInParts(client, opts.bucket, key, body, contentType);
    },
    async putFile(key, path, contentType) {
      // A presigned PUT lets the body stream from disk with a known Content-Length; minio's putObject
      // would read a stream below its part size (64 MiB) into memory first.
      const { size } = await stat(path);
      const url = new URL(await client.presignedPutObject(opts.bucket, key, 300));
      await new Promise<void>((resolve, reject) => {
        const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const req = send(url, { method: 'PUT', headers: { 'content-length': size, 'content-type': contentType } }, (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode && res.statusCode < 300
              ? resolve()
              : reject(new Error(`object storage answered ${res.statusCode} to PUT ${key}`)),
          );
        });
        req.on('error', reject);
        createReadStream(path).on('error', reject).pipe(req);
      });
    },
    async getStream(key) {
      return client.getObject(opts.bucket, key);
    },
    async get(key) {
      return onceMoreIfReset(async () => {
        const stream = await client.getObject(opts.bucket, key);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      });
    },
    async exists(key) {
      try {
        await onceMoreIfReset(() => client.statObject(opts.bucket, key));
        return true;
      } catch (err) {
        if ((err as { code?: string }).code === 'NotFound' || (err as { code?: string }).code === 'NoSuchKey') return false;
        throw err;
      }
    },
    async remove(key) {
      await onceMoreIfReset(() => client.removeObject(opts.bucket, key));
    },
    async removePrefix(prefix, removeOpts) {
      checkedTestCompanyPrefix(prefix);
      const pageSize = removeOpts?.pageSize ?? 1000;
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new Error(`pageSize ${pageSize}: 1 to 1000`);
      let removed = 0;
      let marker = '';
      for (;;) {
        // ListObjects (v1) with a marker, the last key of the page before: ListObjectsV2's continuation token is
        // what the embedded server cannot make (it ciphers it with DES, which Node's OpenSSL 3 refuses: a 500)
        const page = await onceMoreIfReset(() =>
          client.listObjectsQuery(opts.bucket, prefix, marker, { Delimiter: '', MaxKeys: pageSize, IncludeVersion: false }),
        );
        // the server filtered by the prefix; checked again, since these keys are deleted
        const names = page.objects.flatMap((o) => (o.name?.startsWith(prefix) ? [o.name] : []));
        if (names.length) {
          // One batch request per page. Should the request itself fail, the page goes key by key: a store without
          // multi-object delete, and the embedded server, which deletes a batch's keys in parallel and answers 500
          // when two of them empty the same folder at once (each removal is idempotent, so repeating is harmless).
          const results = await client.removeObjects(opts.bucket, names).catch(async () => {
            for (const name of names) await onceMoreIfReset(() => client.removeObject(opts.bucket, name));
            return [];
          });
          const failed = results.find((r) => r?.Error)?.Error;
          if (failed) throw new Error(`object storage refused to delete ${failed.Key ?? 'an object'}: ${failed.Code ?? failed.Message}`);
          removed += names.length;
        }
        const last = page.objects.at(-1)?.name;
        if (!page.isTruncated || !last) return removed;
        marker = last;
      }
    },
    async presignGet(key, downloadName) {
      const headers = downloadName ? { 'response-content-disposition': attachmentDisposition(downloadName) } : undefined;
      return signer.presignedGetObject(opts.bucket, key, opts.presignTtlSeconds, headers);
    },
  };
}
