import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES } from '@inv/contracts';
import { buildOpenApiDocument } from './document';

// JSON documents are inspected loosely in tests.
type Json = any;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/**
 * The reference's examples are what an integrator copies: each one must be valid by its own schema (JSON Schema
 * 2020-12, as OpenAPI 3.1 writes it, checked by ajv with its formats), every operation shows an example answer, and a
 * resource answers one shape in its list and in its detail.
 */
describe('OpenAPI examples', () => {
  const doc: Json = buildOpenApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // OpenAPI's annotation keywords beside JSON Schema's
  ajv.addVocabulary(['example', 'x-disabled']);
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  const compiled = new Map<string, ValidateFunction>();
  /** A schema of the document made standalone: its references point into the document's components. */
  const validatorOf = (schema: Json): ValidateFunction => {
    const text = JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/');
    let v = compiled.get(text);
    if (!v) compiled.set(text, (v = ajv.compile(JSON.parse(text))));
    return v;
  };
  const invalid: string[] = [];
  let checked = 0;
  const check = (where: string, schema: Json, example: unknown) => {
    if (!schema || example === undefined) return;
    checked++;
    const validate = validatorOf(schema);
    if (!validate(example)) invalid.push(`${where}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
  };

  /** Every schema in the tree under `node` with an example of its own (annotations, not examples' insides). */
  const schemaExamples = (node: Json, at: string) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((v, i) => schemaExamples(v, `${at}/${i}`));
    if (node.example !== undefined && (node.type || node.$ref || node.anyOf || node.oneOf || node.allOf || node.enum || node.const)) {
      const { example, ...schema } = node;
      check(at, schema, example);
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'example' && k !== 'examples') schemaExamples(v, `${at}/${k}`);
  };

  const operations = [
    ...Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({ where: `${m.toUpperCase()} ${path}`, item, op: item[m] as Json })),
    ),
    ...Object.entries((doc.webhooks ?? {}) as Record<string, Json>).map(([name, item]) => ({
      where: `webhook ${name}`,
      item,
      op: item.post,
    })),
  ];
  const mediaExamples = (media: Json): unknown[] => [
    ...(media.example === undefined ? [] : [media.example]),
    ...Object.values((media.examples ?? {}) as Record<string, Json>).map((e) => e.value),
  ];
  const componentOf = (schema: Json) =>
    typeof schema?.$ref === 'string' ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : undefined;

  beforeAll(() => {
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Json>)) {
      check(`components.schemas.${name}`, { $ref: `#/components/schemas/${name}` }, schema.example);
      const { example: _whole, ...rest } = schema;
      schemaExamples(rest, `components.schemas.${name}`);
    }
    for (const { where, item, op } of operations) {
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        check(`${where} parameter ${p.name}`, p.schema, p.example);
        for (const e of Object.values((p.examples ?? {}) as Record<string, Json>)) check(`${where} parameter ${p.name}`, p.schema, e.value);
        schemaExamples(p.schema, `${where} parameter ${p.name}`);
      }
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>)) {
        for (const e of mediaExamples(media)) check(`${where} request ${type}`, media.schema, e);
        schemaExamples(media.schema, `${where} request ${type}`);
      }
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>))
          check(`${where} ${status} header ${name}`, header.schema, header.example);
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
          for (const e of mediaExamples(media)) check(`${where} ${status} ${type}`, media.schema, e);
          schemaExamples(media.schema, `${where} ${status} ${type}`);
        }
      }
    }
  });

  it('validates every example against its own schema', () => {
    expect(checked).toBeGreaterThan(1_000);
    expect(invalid).toEqual([]);
  });

  it('catches an example that breaks its schema (the check is not vacuous)', () => {
    const before = invalid.length;
    check('probe', { $ref: '#/components/schemas/Position' }, { ...doc.components.schemas.Position.example, tax_rate: '19' });
    check('probe', { $ref: '#/components/schemas/Invoice' }, { ...doc.components.schemas.Invoice.example, invoice_format: 'ZUGFERD_2' });
    check('probe', { type: 'string', format: 'date' }, '21.11.2026');
    expect(invalid.splice(before)).toHaveLength(3);
  });

  it('shows an example answer for every operation: each response with a body, each webhook request', () => {
    const missing: string[] = [];
    for (const { where, op } of operations) {
      if (where.startsWith('webhook ')) {
        if (mediaExamples(op.requestBody.content['application/json']).length === 0) missing.push(where);
        continue;
      }
      const responses = Object.entries((op.responses ?? {}) as Record<string, Json>);
      expect([where, responses.some(([status]) => /^2/.test(status))]).toEqual([where, true]);
      for (const [status, response] of responses)
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>))
          if (mediaExamples(media).length === 0 && componentOf(media.schema)?.example === undefined && media.schema?.format !== 'binary')
            missing.push(`${where} ${status} ${type}`);
    }
    expect(missing).toEqual([]);
  });

  it('answers one shape per resource: a list item is the detail', () => {
    const answer = (path: string) => doc.paths[path]?.get?.responses?.['200']?.content?.['application/json']?.schema;
    /** The item schema of a list answer: a bare array, or the array member of a page object. */
    const itemOf = (schema: Json): Json => {
      if (schema?.type === 'array') return schema.items;
      const page = componentOf(schema) ?? schema;
      const arrays = Object.values((page?.properties ?? {}) as Record<string, Json>).filter((p) => p.type === 'array');
      return arrays.length === 1 ? arrays[0].items : undefined;
    };
    const pairs: string[] = [];
    const differ: string[] = [];
    for (const path of Object.keys(doc.paths)) {
      const m = /^(.*\/)(\w+)\/\{\w+\}$/.exec(path) ?? /^(.*\/)\{\w+\}$/.exec(path);
      if (!m || !answer(path)) continue;
      // the list of /x/{id} is /x/; of the singular alias /invoice/{id}/position/{pid} the plural /positions
      const lists = m[2] ? [`${m[1]}${m[2]}`, `${m[1]}${m[2]}/`, `${m[1]}${m[2]}s`] : [m[1]];
      const list = lists.find((l) => answer(l));
      if (!list) continue;
      const item = itemOf(answer(list));
      // a download link (…/attachments/{id} answers a presigned URL) is no detail of the resource
      if (!item || /Link$/.test(answer(path)?.$ref ?? '')) continue;
      pairs.push(path);
      if (JSON.stringify(item) !== JSON.stringify(answer(path)))
        differ.push(`${list} ${JSON.stringify(item)} vs ${path} ${JSON.stringify(answer(path))}`);
    }
    expect(pairs).toEqual(
      expect.arrayContaining(['/customer/{id}', '/invoice/{id}', '/inbound/{id}', '/bank-statements/{id}', '/products/{id}']),
    );
    expect(differ).toEqual([]);
  });

  it('shows webhook payloads as real deliveries carry them', () => {
    const example = (type: string) => doc.webhooks[type].post.requestBody.content['application/json'].example;
    for (const type of WEBHOOK_EVENT_TYPES) {
      const e = example(type);
      expect([type, e?.type, /^evt_[0-9a-f]{24}$/.test(e?.id)]).toEqual([type, type, true]);
    }
    expect(example('invoice.finalized').data.invoice).toMatchObject({
      status: 'OPEN',
      invoice_format: 'ZUGFERD',
      document_type: 'INVOICE',
      paid_date: null,
      cancelled_at: null,
    });
    expect(example('invoice.finalized').data).toMatchObject({ pdf_available: true, xml_available: true });
    // a credit note applied in full to what its invoice still owed is PAID in the transaction that finalizes it
    expect(example('credit_note.finalized').data.invoice).toMatchObject({
      status: 'PAID',
      document_type: 'CREDIT_NOTE',
      preceding_invoice_id: example('invoice.finalized').data.invoice.id,
    });
    expect(example('invoice.created').data.invoice).toMatchObject({ status: 'DRAFT', invoice_date: null, finalized_at: null });
    expect(example('invoice.payment_recorded').data.invoice).toMatchObject({ status: 'PAID', open_amount: 0 });
    expect(example('invoice.status_changed').data).toMatchObject({ status: 'OVERDUE', invoice: { status: 'SENT' } });
  });

  it('groups operations so that each is found where an integrator looks: payments have their own group', () => {
    const tagOf = (path: string, method: string) => doc.paths[path][method].tags;
    expect(tagOf('/invoice/{id}/payments', 'post')).toEqual(['Payments']);
    expect(doc.tags.map((t: Json) => t.name)).toContain('Payments');
    expect(doc.webhooks['invoice.finalized'].post.summary).toBe('invoice.finalized');
  });
});
