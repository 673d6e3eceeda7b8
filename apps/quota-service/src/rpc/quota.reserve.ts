import type { Envelope } from '@inv/bus';
import type { QuotaDeps } from '../usecases/deps';
import { reserveFinalization } from '../usecases/reserve-finalization';

export const onQuotaReserve = (deps: QuotaDeps, msg: Envelope<{ reservationId: string; at?: string }>) =>
  reserveFinalization(deps, msg.companyId, msg.data.reservationId, msg.data.at ? new Date(msg.data.at) : new Date());
