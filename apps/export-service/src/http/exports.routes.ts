import { Router } from 'express';
import { ExportRequest, IntId, JobId } from '@inv/contracts';
import { companyIdOf, notFound, parseInput, parsePath, setPaginationHeaders } from '@inv/service-kit';
import type { ExportDeps } from '../support/deps';
import { deleteDownload } from '../usecases/delete-download';
import { downloadLink } from '../usecases/download-link';
import { listDownloads } from '../usecases/list-downloads';
import { startExport } from '../usecases/start-export';
import { presentDownload, presentDownloadLink, presentJob } from './presenters';

/** Export jobs and the files they produce. */
export function exportRoutes(deps: ExportDeps): Router {
  const r = Router();
  r.post('/exports/job', async (req, res) => {
    const jobId = await startExport(deps, companyIdOf(req), parseInput(ExportRequest, req.body));
    res.status(201).location(`${req.baseUrl}/exports/job/${jobId}`).json({ message: 'export job queued', job_id: jobId });
  });
  r.get('/exports/job/:job_id', async (req, res) => {
    const id = parsePath(JobId, req.params, 'job_id');
    const job = await deps.jobs.get(companyIdOf(req), id);
    if (!job) throw notFound(`export job ${id}`);
    res.json(presentJob(job));
  });
  r.get('/downloads/', async (req, res) => {
    const list = await listDownloads(deps, companyIdOf(req));
    setPaginationHeaders(req, res, { total: list.length, page: 1, limit: Math.max(list.length, 1) });
    res.json(list.map(presentDownload)); // a bare array, newest first, as the published SDK reads it
  });
  r.get('/downloads/:id/download', async (req, res) => {
    res.json(presentDownloadLink(await downloadLink(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'))));
  });
  r.delete('/downloads/:id', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    await deleteDownload(deps, companyIdOf(req), id);
    res.json({ message: `download ${id} deleted` });
  });
  return r;
}
