import type { buildOpenApiDocument } from './document';

type Doc = ReturnType<typeof buildOpenApiDocument>;
interface Operation {
  summary?: string;
  requestBody?: { content: Record<string, { schema?: { $ref?: string } }> };
  responses: Record<string, unknown>;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const METHODS = ['get', 'post', 'put', 'delete'] as const;

/**
 * A self-contained reference page rendered from the OpenAPI document: no scripts or CDN, so it works on
 * machines without internet access. Tools that want more read /api/v1/openapi.json.
 */
export function renderDocsPage(doc: Doc): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      const ref = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema?.$ref : undefined;
      const body = ref ? `<a href="#${escape(ref.split('/').pop() ?? '')}">${escape(ref.split('/').pop() ?? '')}</a>` : op.requestBody ? 'JSON' : '';
      rows.push(`<tr><td class="m ${method}">${method.toUpperCase()}</td><td><code>${escape(path)}</code></td><td>${escape(op.summary ?? '')}</td><td>${body}</td><td>${Object.keys(op.responses).join(' ')}</td></tr>`);
    }
  }
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<h3 id="${escape(name)}">${escape(name)}</h3><pre>${escape(JSON.stringify(schema, null, 2))}</pre>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(doc.info.title)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.35em .5em;text-align:left;vertical-align:top}
.m{font-weight:600;font-family:monospace}.get{color:#0a7}.post{color:#06c}.put{color:#b70}.delete{color:#c33}
pre{background:#f6f6f6;padding:.8em;overflow:auto;font-size:12px}</style></head><body>
<h1>${escape(doc.info.title)} <small>${escape(doc.info.version)}</small></h1>
<p>${escape(doc.info.description)}</p>
<p>Base URL: <code>/api/v1</code>. Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>What it does</th><th>Body</th><th>Answers</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<h2>Schemas</h2>
${schemas}
</body></html>`;
}
