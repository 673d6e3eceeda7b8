import { Router } from 'express';
import { docsInitScript, renderDocsPage, scalarBundle } from './docs-page';
import { buildOpenApiDocument } from './document';

/** The OpenAPI document and the reference page; both public (no API key), like most first-class APIs. */
export function openApiRoutes(): Router {
  const router = Router();
  // Built once per process: the document only changes with a deployment.
  const json = JSON.stringify(buildOpenApiDocument());
  const page = renderDocsPage();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').setHeader('cache-control', 'public, max-age=300').send(docsInitScript);
  });
  router.get('/docs/scalar.js', (_req, res) => {
    res.type('application/javascript').setHeader('cache-control', 'public, max-age=86400').send(scalarBundle());
  });
  return router;
}
