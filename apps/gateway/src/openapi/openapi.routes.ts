import { Router } from 'express';
import { buildOpenApiDocument } from './document';

/** The OpenAPI document and a docs page; both public (no API key), like most first-class APIs. */
export function openApiRoutes(): Router {
  const router = Router();
  let cached: string | undefined;
  router.get('/openapi.json', (_req, res) => {
    cached ??= JSON.stringify(buildOpenApiDocument());
    res.type('application/json').send(cached);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(`<!doctype html><html><head><meta charset="utf-8"><title>Invoicing API</title></head>
<body><redoc spec-url="openapi.json"></redoc>
<noscript>The API reference is the OpenAPI document at <a href="openapi.json">openapi.json</a>.</noscript>
<script src="https://cdn.redoc.ly/redoc/latest/bundles/redoc.standalone.js"></script></body></html>`);
  });
  return router;
}
