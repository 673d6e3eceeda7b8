import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** JSON read loosely: the OpenAPI document as committed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * The committed OpenAPI document (docs/openapi.json) as JSON Schema 2020-12 validators, so a test checks an example
 * or a real answer against the very schema the reference publishes: `validate(pointer, value)` answers the errors
 * (empty when valid) of the schema at a JSON pointer into the document (e.g. `#/components/schemas/RecurringInvoice`).
 */
export function openApiSchemas() {
  const doc: Json = JSON.parse(readFileSync(resolve(__dirname, '../../../../docs/openapi.json'), 'utf8'));
  // OpenAPI's own keywords (example, x-…) are no JSON Schema keywords: not strict
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi' });
  const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  return {
    doc,
    /** JSON pointer of a path's operation part: pointer('/recurring-invoices/{id}', 'get', …). */
    pointer: (path: string, ...rest: string[]) => `#/paths/${[path, ...rest].map(escape).join('/')}`,
    validate(pointer: string, value: unknown): string[] {
      const check = ajv.getSchema(`openapi${pointer}`);
      if (!check) throw new Error(`no schema at ${pointer}`);
      return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`);
    },
  };
}
