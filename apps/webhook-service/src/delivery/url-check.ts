import { AppError } from '@inv/service-kit';
import { refusalOf } from './address-guard';
import type { WebhookDeps } from '../support/deps';

/** 400 WEBHOOK_URL_NOT_ALLOWED unless the URL may be called (form, and every address its host resolves to now). */
export async function assertUrlAllowed(deps: WebhookDeps, url: string): Promise<void> {
  const reason = await refusalOf(url, { ...deps.policy, resolve: deps.resolve });
  if (reason)
    throw new AppError('invalid_data', `url not allowed: ${reason}`, {
      code: 'WEBHOOK_URL_NOT_ALLOWED',
      errors: [{ path: 'url', in: 'body', message: reason }],
    });
}
