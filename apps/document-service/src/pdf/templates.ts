import type { FontName } from './fonts';

/** What `GET /template/` lists. */
export interface TemplateInfo {
  id: number;
  name: string;
  description: string;
}

/** How a template looks; the layout grid (DIN 5008) is the same for all templates. */
export interface TemplateTheme extends TemplateInfo {
  fonts: { regular: FontName; bold: FontName };
  /** sRGB hex colours (the PDF/A output intent is sRGB, so no CMYK anywhere). */
  colors: {
    text: string;
    muted: string;
    accent: string;
    rule: string;
    headerFill: string | null;
    zebra: string | null;
    headerText: string;
  };
  /** Table header style: 'rule' = bold text between lines (classic), 'band' = filled accent band. */
  tableHeader: 'rule' | 'band';
  /** Title size in pt. */
  titleSize: number;
}

const THEMES: readonly TemplateTheme[] = [
  {
    id: 1,
    name: 'Classic',
    description: 'DIN 5008 letter layout in black and grey with ruled tables; suits any business.',
    fonts: { regular: 'serif', bold: 'serifBold' },
    colors: { text: '#1a1a1a', muted: '#5c5c5c', accent: '#1a1a1a', rule: '#8c8c8c', headerFill: null, zebra: null, headerText: '#1a1a1a' },
    tableHeader: 'rule',
    titleSize: 15,
  },
  {
    id: 2,
    name: 'Modern',
    description: 'DIN 5008 layout with a sans-serif face, a blue accent band for table headers and shaded rows.',
    fonts: { regular: 'sans', bold: 'sansBold' },
    colors: {
      text: '#1f2933',
      muted: '#616e7c',
      accent: '#1c5d99',
      rule: '#cbd2d9',
      headerFill: '#1c5d99',
      zebra: '#f2f5f8',
      headerText: '#ffffff',
    },
    tableHeader: 'band',
    titleSize: 17,
  },
];

/** The templates callers may choose by id (`ftl_template_id`). */
export const templates: TemplateInfo[] = THEMES.map(({ id, name, description }) => ({ id, name, description }));

export const DEFAULT_TEMPLATE_ID = 1;

/** The template with this id, or undefined. */
export function getTemplate(id: number): TemplateInfo | undefined {
  return templates.find((t) => t.id === id);
}

/** The full theme for rendering; throws RangeError for an unknown id. */
export function themeFor(id: number): TemplateTheme {
  const theme = THEMES.find((t) => t.id === id);
  if (!theme) throw new RangeError(`unknown template id ${JSON.stringify(id)}; known: ${THEMES.map((t) => t.id).join(', ')}`);
  return theme;
}
