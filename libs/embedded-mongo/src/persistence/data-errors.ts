/** Why a data directory cannot be used: the error it throws, with the file concerned and what to do. */

export const WHAT_TO_DO = 'start with --fresh to delete the data directory, or move it away (nothing was deleted)';

export type DataErrorReason = 'unwritable' | 'damaged' | 'newer-format' | 'in-use';

/** A data directory that cannot be used; `file` is the file (or directory) concerned. Nothing was deleted. */
export class EmbeddedMongoDataError extends Error {
  override readonly name = 'EmbeddedMongoDataError';
  constructor(
    message: string,
    readonly file: string,
    readonly reason: DataErrorReason,
  ) {
    super(message);
  }
}

export function damaged(file: string, what: string): EmbeddedMongoDataError {
  return new EmbeddedMongoDataError(`The embedded MongoDB's data file ${file} ${what}; ${WHAT_TO_DO}.`, file, 'damaged');
}

export function unwritable(dir: string, err: unknown): EmbeddedMongoDataError {
  const reason = err instanceof Error ? err.message : String(err);
  return new EmbeddedMongoDataError(`cannot write to ${dir}: ${reason}`, dir, 'unwritable');
}
