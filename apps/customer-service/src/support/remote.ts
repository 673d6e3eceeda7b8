import { RpcTimeoutError } from '@inv/bus';
import { AppError } from '@inv/service-kit';

/**
 * Runs an RPC to another service; a timeout (the other service is down or too slow) becomes a 503
 * problem for the caller instead of an unexpected 500.
 */
export async function askOrUnavailable<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof RpcTimeoutError)
      throw new AppError('unavailable', `${what} is not available right now; retry later`, { code: 'SERVICE_UNAVAILABLE' });
    throw err;
  }
}
