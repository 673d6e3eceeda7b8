import { Router } from 'express';
import { problem } from '@inv/service-kit';
import { docsInitScript, renderDocsPage, scalarBundle } from './docs-page';
import { buildOpenApiDocument } from './document';
import { problemCodeOf, renderProblemIndex, renderProblemPage } from './problem-pages';

/** The OpenAPI document and the reference page; both public (no API key), like most first-class APIs. */
export function openApiRoutes(document: object = buildOpenApiDocument()): Router {
  const router = Router();
  // Built once per process: the document only changes with a deployment.
  const json = JSON.stringify(document);
  const page = renderDocsPage();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  // every problem `type` URI resolves: a page per error_code and an index
  const problemIndex = renderProblemIndex();
  router.get(['/problems', '/problems/'], (_req, res) => {
    res.type('html').setHeader('cache-control', 'public, max-age=300').send(problemIndex);
  });
  router.get('/problems/:code', (req, res) => {
    const code = problemCodeOf(String(req.params.code));
    if (!code) {
      res
        .status(404)
        .type('application/problem+json')
        .send(problem(404, 'NOT_FOUND', `no problem type ${req.params.code}`));
      return;
    }
    res.type('html').setHeader('cache-control', 'public, max-age=300').send(renderProblemPage(code));
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').setHeader('cache-control', 'public, max-age=300').send(docsInitScript);
  });
  router.get('/docs/scalar.js', (_req, res) => {
    res.type('application/javascript').setHeader('cache-control', 'public, max-age=86400').send(scalarBundle());
  });
  return router;
}
