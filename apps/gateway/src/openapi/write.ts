import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApiDocument } from './document';

/** `npm run -s openapi:write`: regenerates docs/openapi.json (committed; a test fails when it is stale). */
export const OPENAPI_FILE = resolve(__dirname, '../../../../docs/openapi.json');
export const renderOpenApiFile = () => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (require.main === module) {
  writeFileSync(OPENAPI_FILE, renderOpenApiFile());
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}
