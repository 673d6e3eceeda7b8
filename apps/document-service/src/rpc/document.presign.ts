import type { RpcRequestOf } from '@inv/runtime';
import type { DocumentDeps } from '../support/deps';

/** A short-lived link to a stored document of the asking company (never another company's object). */
export async function onPresign(deps: DocumentDeps, msg: RpcRequestOf<'document.presign.v1'>) {
  if (!msg.data.key.startsWith(`${msg.companyId}/`)) throw new Error('object belongs to another company');
  return { url: await deps.objects.presignGet(msg.data.key, msg.data.filename), expiresInSeconds: deps.presignTtlSeconds };
}
