/**
 * The entry of an inspection worker thread (piscina, see inspector.ts): each worker holds the compiled rule sets
 * of the kit named in workerData and validates documents off the service's event loop.
 */
import { workerData } from 'node:worker_threads';
import { kitRunner, type InspectResult, type InspectTask, type KitOptions } from './inspect-task';

const run = kitRunner(workerData as KitOptions);

export default function inspect(task: InspectTask): Promise<InspectResult> {
  return run(task);
}
