import { buildOpenApiDocument } from './document';

process.stdout.write(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
