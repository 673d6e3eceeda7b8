/** A reason not to start that the caller can fix. */
export class StartError extends Error {}

/**
 * What the launcher does when a service exits while the platform runs:
 * - 'stop' (default): stops every other service and exits 1;
 * - 'keep-going' (KEEP_GOING=1 or --keep-going): logs which service died and how, the others keep running;
 * - 'restart' (RESTART=1 or --restart): as keep-going, and starts the service again after a backoff.
 * A service that dies before the platform is up still fails the start in every mode.
 */
export type Supervision = 'stop' | 'keep-going' | 'restart';

/** RESTART: restarts in a row before the launcher gives up on a service; backoff 1 s, 2 s, 4 s, 8 s, 16 s. */
export const RESTART_LIMIT = 5;
/** RESTART: a service that ran this long after it was ready starts a new series (backoff from 1 s again). */
export const RESTART_STABLE_MS = 60_000;
export const restartBackoffMs = (attempt: number) => Math.min(1000 * 2 ** (attempt - 1), 30_000);

const KNOWN_ARGS = ['--keep-going', '--restart', '--fresh'];

function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (['', '0', 'false', 'no'].includes(value)) return false;
  if (['1', 'true', 'yes'].includes(value)) return true;
  throw new StartError(`${name} must be 1 or 0`);
}

export function supervision(env: NodeJS.ProcessEnv, args: string[]): Supervision {
  const unknown = args.filter((a) => !KNOWN_ARGS.includes(a));
  if (unknown.length) throw new StartError(`unknown argument(s) ${unknown.join(' ')}; known: ${KNOWN_ARGS.join(', ')}`);
  if (envFlag(env, 'RESTART') || args.includes('--restart')) return 'restart';
  if (envFlag(env, 'KEEP_GOING') || args.includes('--keep-going')) return 'keep-going';
  return 'stop';
}

/** `--fresh` or FRESH=1: the data directory is deleted before the start (nothing else ever deletes it). */
export const freshStart = (env: NodeJS.ProcessEnv, args: string[]): boolean => envFlag(env, 'FRESH') || args.includes('--fresh');
