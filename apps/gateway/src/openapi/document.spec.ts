import { renderDocsPage } from './docs-page';
import { buildOpenApiDocument } from './document';

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument();

  it('is OpenAPI 3.1 with the API key scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('describes the request bodies from the zod contracts', () => {
    expect(doc.paths['/customer/'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CustomerCreate' });
    const customer = doc.components.schemas.CustomerCreate as { properties: Record<string, { enum?: string[] }> };
    expect(customer.properties.salutation.enum).toEqual(['MR', 'MRS', 'MS', 'OTHER']);
    const position = doc.components.schemas.PositionCreate as { required: string[] };
    expect(position.required).toEqual(expect.arrayContaining(['title', 'quantity', 'unit_id', 'unit_net_amount']));
  });

  it('documents the 402 and 422 answers of finalization', () => {
    expect(Object.keys(doc.paths['/invoice/{id}/job'].post.responses)).toEqual(expect.arrayContaining(['201', '402', '422']));
  });

  it('renders a self-contained docs page listing every operation', () => {
    const page = renderDocsPage(doc);
    expect(page).not.toMatch(/<script/);
    expect(page).toContain('<code>/invoice/{id}/job</code>');
    expect(page).toContain('id="CustomerCreate"');
  });
});
