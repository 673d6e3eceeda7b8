/**
 * The entry of an inspection worker thread (piscina, see inspector.ts): each worker holds the compiled rule sets
 * of the kit named in workerData and validates documents off the service's event loop.
 */
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { kitRunner, type InspectResult, type InspectTask, type KitOptions } from '../workers/inspect-task';

const options = workerData as KitOptions & { nice?: number };
// Linux keeps a nice value per thread: this lowers this worker thread (and the xmllint it starts) only, so that
// validation takes the CPU the other work of the machine leaves idle (bench:inbound-finalize). Refused elsewhere: ignored.
if (options.nice)
  try {
    setPriority(options.nice);
  } catch {
    /* not permitted here: validation runs at the service's priority */
  }
const run = kitRunner(options);

export default function inspect(task: InspectTask): Promise<InspectResult> {
  return run(task);
}
