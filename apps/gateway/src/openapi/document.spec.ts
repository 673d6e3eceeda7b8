import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ERROR_CODES, WARNING_CODES } from '@inv/contracts';
import { buildOpenApiDocument } from './document';
import { OPENAPI_FILE, renderOpenApiFile } from './write';

// JSON documents are inspected loosely in tests.
type Json = any;
const METHODS = ['get', 'post', 'put', 'delete'] as const;

describe('OpenAPI document', () => {
  const doc: Json = buildOpenApiDocument();
  const operations = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] as Json })),
  );

  it('is OpenAPI 3.1 with the API key scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('resolves every $ref inside the document (a generator refuses the whole document otherwise)', () => {
    const unresolved: string[] = [];
    const resolves = (ref: string) =>
      ref.startsWith('#/') &&
      ref
        .slice(2)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<Json>((node, key) => (node === undefined ? undefined : node[key]), doc) !== undefined;
    const walk = (node: Json, at: string) => {
      if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`));
      else if (node && typeof node === 'object')
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string' && !resolves(v)) unresolved.push(`${at}: ${v}`);
          else walk(v, `${at}/${k}`);
        }
    };
    walk(doc, '#');
    expect(unresolved).toEqual([]);
  });

  it('gives every operation a unique operationId, a tag and a response schema for every status', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations) {
      expect([path, method, op.tags?.length > 0]).toEqual([path, method, true]);
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>))
        expect([path, method, status, Boolean(response.content)]).toEqual([path, method, status, true]);
    }
  });

  it('documents every operation of the spec and every alias existing SDKs use', () => {
    const have = new Set(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`));
    const spec = [
      'GET /invoice/',
      'POST /invoice/',
      'GET /invoice/{id}',
      'PUT /invoice/{id}',
      'POST /invoice/{id}/positions',
      'PUT /invoice/{id}/positions/reorder',
      'GET /invoice/{id}/validate',
      'POST /invoice/{id}/job',
      'GET /invoice/{id}/job/{job_id}',
      'GET /invoice/{id}/pdf-link',
      'GET /invoice/{id}/xml-link',
      'POST /invoice/{id}/send_email',
      'PUT /invoice/{id}/status',
      'POST /invoice/{id}/cancel',
      'POST /invoice/{id}/credit-note',
      'GET /invoice/{id}/attachments',
      'POST /invoice/{id}/attachments',
      'GET /invoice/{id}/preview',
      'GET /invoice/tax-treatments',
      'GET /customer/',
      'POST /customer/',
      'GET /customer/{id}',
      'PUT /customer/{id}',
      'GET /customer/{id}/addresses',
      'POST /customer/{id}/addresses',
      'GET /customer/{id}/vat-check',
      'GET /customer/{id}/financial-overview',
      'GET /customer/{id}/statement',
      'GET /customer/{id}/statement/pdf',
      'GET /template/',
      'POST /exports/job',
      'GET /exports/job/{job_id}',
      'GET /acctexp/config',
      'PUT /acctexp/config',
      'GET /acctexp/mappings',
      'PUT /acctexp/mappings',
      'POST /acctexp/mappings/reset',
      'GET /downloads/',
      'GET /downloads/{id}/download',
      'DELETE /downloads/{id}',
    ];
    const sdk = [
      'GET /customer/{id}/addresses/{address_id}',
      'PUT /customer/{id}/addresses/{address_id}',
      'DELETE /customer/{id}/addresses/{address_id}',
      'POST /invoice/{id}/duplicate',
      'GET /invoice/{id}/positions',
      'GET /invoice/{id}/position/{position_id}',
      'PUT /invoice/{id}/position/{position_id}',
      'DELETE /invoice/{id}/position/{position_id}',
      'GET /datev/config',
      'PUT /datev/config',
      'GET /template/{id}',
    ];
    expect([...spec, ...sdk].filter((o) => !have.has(o))).toEqual([]);
  });

  it('models the 402 and 422 bodies of finalization and lists every error code', () => {
    const job = doc.paths['/invoice/{id}/job'].post.responses;
    expect(job['402'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/QuotaProblem' });
    expect(job['422'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/UnprocessableProblem' });
    const quota = doc.components.schemas.QuotaProblem;
    expect(quota.required).toEqual(expect.arrayContaining(['usage', 'used', 'limit', 'reset_date', 'message', 'error_code']));
    expect(doc.components.schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_CODES));
    expect(doc.info.description).toContain('| `VAT_OVERRIDE_REQUIRED` | 422 |');
  });

  it('lets optional request fields be null (the SDK sends null for "not given") and describes lists as bare arrays', () => {
    const position = doc.components.schemas.PositionCreateInput; // title, unit_id, unit_net_amount come from product_id when absent
    expect(position.required).toEqual(['quantity']);
    expect(Object.keys(position.properties)).toEqual(expect.arrayContaining(['product_id', 'title', 'unit_id', 'unit_net_amount']));
    expect(position.properties.description.anyOf).toContainEqual({ type: 'null' });
    expect(doc.components.schemas.InvoiceCreate.properties.meta.anyOf).toContainEqual({ type: 'null' });
    const customers = doc.paths['/customer/'].get.responses['200'];
    expect(customers.content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Customer' } });
    expect(Object.keys(customers.headers)).toEqual(['X-Total-Count', 'Link']);
  });

  it('gives examples everywhere, no safe-integer bounds, short summaries and try-it without pre-set filters', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('9007199254740991');
    expect(
      Object.entries(doc.components.schemas as Record<string, Json>)
        .filter(([, s]) => s.example === undefined)
        .map(([n]) => n),
    ).toEqual([]);
    const long = operations.map((o) => o.op.summary as string).filter((s) => s.length > 60 || s.endsWith('.'));
    expect(long).toEqual([]);
    const parameters = operations.flatMap(({ path, op }) => [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])]);
    expect(parameters.filter((p: Json) => p.example === undefined && p.examples === undefined).map((p: Json) => p.name)).toEqual([]);
    // optional query parameters: shown, not sent by the try-it (List customers lists everyone)
    const preset = parameters.filter(
      (p: Json) => p.in === 'query' && !p.required && (p.example !== undefined || p.examples?.example?.['x-disabled'] !== true),
    );
    expect(preset.map((p: Json) => p.name)).toEqual([]);
    expect(doc.components.schemas.Problem.example.type).toBe('/api/v1/problems/validation-error');
  });

  it('is committed as docs/openapi.json and up to date (npm run -s openapi:write)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(renderOpenApiFile());
  });

  it('knows every error_code a service answers with', () => {
    const root = resolve(__dirname, '../../../..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) {
          if (!['node_modules', 'fixtures', 'embedded-mongo', 'vies-simulator', 'bus'].includes(name)) walk(full);
        } else if (full.endsWith('.ts') && !full.endsWith('.spec.ts')) files.push(full);
      }
    };
    walk(join(root, 'apps'));
    walk(join(root, 'libs'));
    const used = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/code: '([A-Z][A-Z_]{3,})'/g)) used.add(m[1]);
      for (const m of text.matchAll(/problem\(\d{3}, '([A-Z][A-Z_]{3,})'/g)) used.add(m[1]);
      for (const m of text.matchAll(/(?:conflict|invalidData|notFound)\([^)]*?, '([A-Z][A-Z_]{3,})'\)/g)) used.add(m[1]);
    }
    const warnings: readonly string[] = WARNING_CODES; // codes of successful answers' warnings, not errors
    expect([...used].filter((c) => !(c in ERROR_CODES) && !warnings.includes(c)).sort()).toEqual([]);
  });
});
