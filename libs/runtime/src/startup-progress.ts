/**
 * What a starting service is doing, told to the launcher that spawned it (npm start, the tests' launchServices) over
 * the IPC channel it opens: the launcher prints it, and counts a service that reports steps as making progress rather
 * than holding it to a fixed start-up deadline. Without that channel (a container, a service started by hand) nothing
 * happens. The channel keeps no process alive: a child's IPC channel holds the event loop only while it has 'message'
 * listeners, and this adds none.
 */
export const STARTUP_MESSAGE = 'inv:startup';

export interface StartupMessage {
  type: typeof STARTUP_MESSAGE;
  step: string;
}

export function reportStartup(step: string): void {
  if (typeof process.send !== 'function' || !process.connected) return;
  const message: StartupMessage = { type: STARTUP_MESSAGE, step };
  // the callback takes a send error (the launcher went away): a progress line is not worth a crash
  process.send(message, undefined, undefined, () => undefined);
}

export const isStartupMessage = (m: unknown): m is StartupMessage =>
  typeof m === 'object' && m !== null && (m as StartupMessage).type === STARTUP_MESSAGE && typeof (m as StartupMessage).step === 'string';
