import { Router } from 'express';
import { renderDocsPage } from './docs-page';
import { buildOpenApiDocument } from './document';

/** The OpenAPI document and a docs page; both public (no API key), like most first-class APIs. */
export function openApiRoutes(): Router {
  const router = Router();
  // Built once per process: the document only changes with a deployment.
  const doc = buildOpenApiDocument();
  const json = JSON.stringify(doc);
  const page = renderDocsPage(doc);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  return router;
}
