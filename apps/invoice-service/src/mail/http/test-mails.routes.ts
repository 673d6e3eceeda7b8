import { Router } from 'express';
import { JobId, TestMailListQuery } from '@inv/contracts';
import { companyIdOf, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import type { MailDeps } from '../deps';
import { getTestMail } from '../usecases/get-test-mail';
import { listTestMails } from '../usecases/list-test-mails';
import { presentTestMail } from '../../http/presenters';

/** Test mode's recorded e-mails (docs/test-mode.md): what would have been sent, with its content. */
export function testMailRoutes(deps: MailDeps): Router {
  const r = Router();
  r.get('/test-mails/', async (req, res) => {
    const q = parseQuery(TestMailListQuery, req.query);
    const { items, total } = await listTestMails(deps, companyIdOf(req), q);
    setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json({ test_mails: items.map(presentTestMail), total, page: q.page, limit: q.limit });
  });
  r.get('/test-mails/:id', async (req, res) => {
    res.json(presentTestMail(await getTestMail(deps, companyIdOf(req), parsePath(JobId, req.params, 'id'))));
  });
  return r;
}
