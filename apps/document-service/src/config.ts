import { z } from 'zod';
import { objectStorageEnv } from '@inv/objects';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const documentConfig = baseEnv.extend({
  PORT: envVars.port(3004),
  ...objectStorageEnv,
});
export type DocumentConfig = z.output<typeof documentConfig>;
