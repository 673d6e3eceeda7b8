import type { z } from 'zod';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const exportConfig = baseEnv.extend({ PORT: envVars.port(3006) });
export type ExportConfig = z.output<typeof exportConfig>;
