/** callRpc got no reply within its timeout (no server, server too slow, or the connection dropped meanwhile). */
export class RpcTimeoutError extends Error {
  override name = 'RpcTimeoutError';
  constructor(
    readonly type: string,
    readonly timeoutMs: number,
  ) {
    super(`RPC ${type} got no reply within ${timeoutMs} ms`);
  }
}

/** The RPC handler on the other side threw; its code, message and details travel back. */
export class RpcRemoteError extends Error {
  override name = 'RpcRemoteError';
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Thrown by a handler: the message can never succeed, park it now without retries. */
export class PermanentError extends Error {
  override name = 'PermanentError';
}

export interface ValidationIssue {
  path: string;
  message: string;
}

/** A message failed its contract: thrown by publish/send/call before anything is sent. */
export class MessageValidationError extends Error {
  override name = 'MessageValidationError';
  constructor(
    readonly type: string,
    readonly issues: ValidationIssue[],
  ) {
    super(`invalid ${type} message: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`);
  }
}

/** The bus could not get a message confirmed by the broker (nack, or no connection within publishTimeoutMs). */
export class PublishError extends Error {
  override name = 'PublishError';
}

/** The code/message/details an RPC handler error carries back (`code` and `details` own properties if present). */
export function describeRemoteError(err: unknown): { code: string; message: string; details?: unknown } {
  if (err instanceof Error) {
    const rec = err as Error & { code?: unknown; details?: unknown };
    const code = typeof rec.code === 'string' && rec.code ? rec.code : 'INTERNAL';
    return rec.details === undefined ? { code, message: err.message } : { code, message: err.message, details: rec.details };
  }
  return { code: 'INTERNAL', message: String(err) };
}
