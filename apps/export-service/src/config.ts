import type { z } from 'zod';
import { objectStorageEnv } from '@inv/objects';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const exportConfig = baseEnv.extend({ PORT: envVars.port(3006), ...objectStorageEnv });
export type ExportConfig = z.output<typeof exportConfig>;
