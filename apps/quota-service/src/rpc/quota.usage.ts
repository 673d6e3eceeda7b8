import type { Envelope } from '@inv/bus';
import type { QuotaDeps } from '../usecases/deps';
import { usageOf } from '../usecases/usage';

export const onQuotaUsage = (deps: QuotaDeps, msg: Envelope<{ at?: string }>) => usageOf(deps, msg.companyId, msg.data.at ? new Date(msg.data.at) : new Date());
