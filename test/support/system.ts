import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createObjectStore, startEmbeddedS3 } from '@inv/objects';
import {
  freeServicesPortOffset,
  launchServices,
  stopServices,
  type LaunchOptions,
  type RunningService,
  type ServiceName,
} from '@inv/runtime';
import { startViesSimulator } from '@inv/vies-simulator';
import { deleteBrokerObjects, deleteRedisKeys, testEnv, uniquePrefix, waitFor } from '@inv/testing';

export const ALL_SERVICES: ServiceName[] = ['account', 'customer', 'invoice', 'document', 'vat', 'export', 'quota', 'gateway'];

// Response bodies are inspected loosely in tests.
type Json = Record<string, any>;

/** JSON calls through the gateway with the API key (another one, or null for none, per call). */
export function apiClient(base: () => string, apiKey: () => string) {
  return async (method: string, path: string, body?: unknown, key: string | null = apiKey()) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (key !== null) headers['x-api-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json: Json | undefined;
    try {
      json = text ? (JSON.parse(text) as Json) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, type: res.headers.get('content-type') ?? '', body: json as Json };
  };
}

export interface System {
  prefix: string;
  apiKey: string;
  env: NodeJS.ProcessEnv;
  portOffset: number;
  running: RunningService[];
  /** The gateway's /api/v1 base URL. */
  base: string;
  url(name: ServiceName): string;
  stop(): Promise<void>;
}

/**
 * The whole system as separate processes for a cross-service test: its own prefix (bus, Redis, databases),
 * random ports, the embedded MongoDB unless MONGO_URL is set, and a demo company whose bootstrap key works
 * before this resolves. `stop()` removes the run's broker objects and Redis keys.
 */
export async function startSystem(
  opts: { kind: string; env?: Record<string, string>; stdio?: LaunchOptions['stdio']; services?: ServiceName[]; compiled?: boolean } = {
    kind: 'e2e',
  },
): Promise<System> {
  const root = resolve(__dirname, '../..');
  const prefix = uniquePrefix(opts.kind);
  const apiKey = `ak_live_${randomBytes(16).toString('hex')}`;
  const portOffset = await freeServicesPortOffset();
  let stopMongo: () => Promise<void> = async () => undefined;
  let mongoUrl = process.env.MONGO_URL;
  if (!mongoUrl) {
    const mongo = await startEmbeddedMongo();
    stopMongo = mongo.stop;
    mongoUrl = mongo.uri;
  }
  // One object store for all services (document-service writes PDFs, export-service reads them and writes ZIPs).
  let stopS3: () => Promise<void> = async () => undefined;
  const s3Env: Record<string, string> = {};
  if (!process.env.S3_ENDPOINT) {
    const s3 = await startEmbeddedS3();
    stopS3 = s3.stop;
    Object.assign(s3Env, { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey });
    // created once here, so the services starting together do not race to create it
    await createObjectStore({
      endpoint: s3.endpoint,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      bucket: opts.env?.S3_BUCKET ?? 'invoicing-documents',
      presignTtlSeconds: 60,
    }).ensureBucket();
  }
  // vat-service never starts the VIES simulator itself: the system gives it one unless VIES_URL is set.
  let stopVies: () => Promise<void> = async () => undefined;
  const viesEnv: Record<string, string> = {};
  if (!process.env.VIES_URL && !opts.env?.VIES_URL) {
    const vies = await startViesSimulator();
    stopVies = vies.stop;
    viesEnv.VIES_URL = vies.url;
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...testEnv(prefix, mongoUrl, { BOOTSTRAP_API_KEY: apiKey, ...s3Env, ...viesEnv, ...opts.env }),
  };
  delete env.PORT;
  const system: System = {
    prefix,
    apiKey,
    env,
    portOffset,
    running: [],
    base: '',
    url: (name) => system.running.find((s) => s.name === name)!.url,
    async stop() {
      await stopServices(system.running);
      await deleteBrokerObjects(prefix);
      await deleteRedisKeys(`${prefix}:`);
      await stopMongo();
      await stopS3();
      await stopVies();
    },
  };
  try {
    // the ports were free a moment ago; another run can still take one before a service listens: then again elsewhere
    for (let attempt = 1; ; attempt++) {
      try {
        system.running = await launchServices({
          root,
          services: opts.services ?? ALL_SERVICES,
          env,
          portOffset: system.portOffset,
          stdio: opts.stdio ?? 'ignore',
          readyTimeoutMs: 180_000,
          compiled: opts.compiled,
        });
        break;
      } catch (err) {
        if (attempt >= 3 || !/EADDRINUSE/.test(String(err))) throw err;
        system.portOffset = await freeServicesPortOffset();
      }
    }
  } catch (err) {
    // a service that did not come up must not leave the embedded servers running (jest would never exit)
    await system.stop().catch(() => undefined);
    throw err;
  }
  system.base = `${system.url('gateway')}/api/v1`;
  const api = apiClient(
    () => system.base,
    () => apiKey,
  );
  // account-service is ready once the bootstrap key works; the gateway may still be settling: wait until the key works
  const probe = !opts.services || opts.services.includes('invoice') ? '/invoice/' : '/company/';
  try {
    await waitFor(async () => (await api('GET', probe)).status === 200, { what: 'bootstrap API key', timeoutMs: 90_000 });
  } catch (err) {
    // the services started: they must not outlive the failed start (they did, and held ports and CPU)
    await system.stop().catch(() => undefined);
    throw err;
  }
  return system;
}
