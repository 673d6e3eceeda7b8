import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from './document';

const root = join(__dirname, '../../../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The documents an integrator reads say one thing each, and stay short enough to be read. */
describe('documentation', () => {
  it('keeps docs/performance.md at most 300 lines', () => {
    expect(read('docs/performance.md').split('\n').length).toBeLessThanOrEqual(301); // 300 lines and the final newline
  });

  it('says everywhere that unknown fields are refused (400 UNKNOWN_FIELD), never that they are ignored', () => {
    const readme = read('README.md').replace(/\s+/g, ' ');
    const reference = buildOpenApiDocument().info.description.replace(/\s+/g, ' ');
    for (const text of [readme, reference]) {
      expect(text).not.toMatch(/unknown (fields|members|keys) (are|is) (ignored|dropped|accepted)/i);
      expect(text).toMatch(/unknown field[^.]* refused/i);
      expect(text).toContain('UNKNOWN_FIELD');
    }
  });
});
