import type { RpcRequestOf } from '@inv/runtime';
import type { QuotaDeps } from '../support/deps';
import { reserveFinalization } from '../usecases/reserve-finalization';

export const onQuotaReserve = (deps: QuotaDeps, msg: RpcRequestOf<'quota.reserve.v1'>) =>
  reserveFinalization(deps, msg.companyId, msg.data.reservationId, msg.data.at ? new Date(msg.data.at) : new Date());
