import type { Document } from 'bson';

/** Server error codes used here, with the codeName MongoDB reports for each. */
export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  ConflictingUpdateOperators: 40,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  WriteConflict: 112,
  NoSuchTransaction: 251,
  TransactionCommitted: 256,
  DuplicateKey: 11000,
} as const;

const codeNames = new Map<number, string>(Object.entries(ErrorCodes).map(([name, code]) => [code, name]));

/** An error that is answered to the client as `{ ok: 0, errmsg, code, codeName, ... }`. */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly extra: Document = {},
    readonly errorLabels: string[] = [],
  ) {
    super(message);
  }

  get codeName(): string {
    return codeNames.get(this.code) ?? 'UnknownError';
  }

  toReply(): Document {
    const reply: Document = { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
    if (this.errorLabels.length) reply.errorLabels = this.errorLabels;
    return reply;
  }
}

export function writeConflict(): CommandError {
  return new CommandError(
    ErrorCodes.WriteConflict,
    'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
    {},
    ['TransientTransactionError'],
  );
}

/** Converts anything thrown while running a command (mingo errors included) into a reply body. */
export function toErrorReply(err: unknown): Document {
  if (err instanceof CommandError) return err.toReply();
  const message = err instanceof Error ? err.message : String(err);
  return new CommandError(ErrorCodes.BadValue, message).toReply();
}
