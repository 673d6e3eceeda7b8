import { z } from 'zod';
import { objectStorageEnv } from '@inv/objects';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const inboundConfig = baseEnv.extend({
  PORT: envVars.port(3009),
  ...objectStorageEnv,
  /** The official conformance kit (XSD, Schematron as XSLT); default: ../shared/conformance next to the clone. */
  INBOUND_CONFORMANCE_DIR: z.string().min(1).optional(),
  /** Where the stylesheets compiled from the kit (SEF) are kept between starts; default ~/.cache/invoicing-inbound/sef. */
  INBOUND_SEF_CACHE_DIR: z.string().min(1).optional(),
  /** The base of the default cache folder (XDG Base Directory); the home's .cache when unset. */
  XDG_CACHE_HOME: z.string().min(1).optional(),
  /** The XSD check: the xmllint program (fast) or xmllint-wasm (no native program needed); auto: the program when installed. */
  INBOUND_XSD_ENGINE: z.enum(['auto', 'xmllint', 'wasm']).default('auto'),
  /** Worker threads validating documents (each holds the compiled rule sets, about 150-250 MB); 0: on the event loop. */
  INBOUND_WORKERS: z.coerce.number().int().min(0).max(8).default(1),
  /**
   * The nice value of the validation worker threads (Linux: per thread; 0 = the service's priority, 19 = lowest): the
   * documents are read from a queue, so they take what CPU finalizations and requests leave idle.
   */
  INBOUND_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /**
   * The share of one core received documents are read with at most, on average (one at a time, then a rest in
   * proportion): 1 reads them back to back. POST /inbound/validate is not held back.
   */
  INBOUND_CPU_SHARE: z.coerce.number().min(0.05).max(1).default(0.25),
  /** A document whose reading and validation take longer is stopped and REJECTED (VALIDATION_TIMEOUT), not retried. */
  INBOUND_VALIDATION_TIMEOUT_MS: z.coerce.number().int().min(500).max(600_000).default(60_000),
});
export type InboundConfig = z.output<typeof inboundConfig>;
