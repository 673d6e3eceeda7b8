/**
 * The entry of a render worker thread (piscina, see render-pool.ts). Each worker keeps its own font and
 * layout caches; it loads the fonts and renders a sample invoice as it starts, so its first real job is warm.
 */
import { preloadFonts } from '../pdf';
import { runRenderTask, type RenderResult, type RenderTask } from './render-task';

preloadFonts();
const warmedUp = runRenderTask({ kind: 'warm-up' });

export default async function render(task: RenderTask): Promise<RenderResult> {
  if (task.kind === 'warm-up') return warmedUp; // the pool asks every worker once, before the service reports ready
  return runRenderTask(task);
}
