import { getTemplate, templates, themeFor } from './templates';

describe('templates', () => {
  it('lists at least two templates with unique ids', () => {
    expect(templates.length).toBeGreaterThanOrEqual(2);
    expect(new Set(templates.map((t) => t.id)).size).toBe(templates.length);
    expect(templates.map((t) => t.name)).toEqual(expect.arrayContaining(['Classic', 'Modern']));
    for (const t of templates) expect(Object.keys(t).sort()).toEqual(['description', 'id', 'name']);
  });

  it('finds templates by id', () => {
    expect(getTemplate(1)?.name).toBe('Classic');
    expect(getTemplate(2)?.name).toBe('Modern');
    expect(getTemplate(99)).toBeUndefined();
  });

  it('refuses to render with an unknown template', () => {
    expect(() => themeFor(0)).toThrow(RangeError);
    expect(themeFor(2).fonts.regular).toBe('sans');
  });
});
