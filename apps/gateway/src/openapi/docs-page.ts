import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The API reference page: Scalar's standalone bundle (`@scalar/api-reference`, a maintained renderer)
 * served from node_modules, so the page works offline and behind a strict CSP (scripts from 'self' only,
 * no inline script): navigation by tag, search, request and response schemas, examples, try-it.
 * Fonts from Scalar's CDN and its telemetry are switched off. The compiled gateway (dist/gateway, see
 * tools/build-services.mjs) carries a copy of the bundle beside it, so the image needs none of the
 * package's 200 MB of Vue dependencies (it is a dev dependency).
 */
const COMPILED_COPY = join(__dirname, 'scalar-standalone.js');
export const SCALAR_BUNDLE = existsSync(COMPILED_COPY)
  ? COMPILED_COPY
  : join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');

export function renderDocsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Invoicing API reference</title>
  <link rel="icon" href="data:,">
</head>
<body>
  <div id="app"></div>
  <script src="/api/v1/docs/scalar.js"></script>
  <script src="/api/v1/docs/init.js"></script>
</body>
</html>
`;
}

/** Tables of the descriptions keep words whole (codes and permission names do not wrap) and scroll when narrow. */
const DOCS_CSS = `.scalar-app .markdown table { table-layout: auto; display: block; max-width: 100%; overflow-x: auto; }
.scalar-app .markdown table td, .scalar-app .markdown table th { word-break: normal; overflow-wrap: normal; hyphens: none; }
.scalar-app .markdown table code { white-space: nowrap; }`;

export const docsInitScript = `Scalar.createApiReference('#app', {
  url: '/api/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  hideClientButton: false,
  persistAuth: false,
  // nothing that calls Scalar's cloud: no "Ask AI" agent, no MCP generator
  agent: { disabled: true },
  mcp: { disabled: true },
  customCss: ${JSON.stringify(DOCS_CSS)},
  metaData: { title: 'Invoicing API reference' },
});
`;

/** The bundle, read once (4 MB). */
export const scalarBundle = (() => {
  let cached: Buffer | undefined;
  return () => (cached ??= readFileSync(SCALAR_BUNDLE));
})();
