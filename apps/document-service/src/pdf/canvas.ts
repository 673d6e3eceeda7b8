import { printable, type FontName } from './fonts';
import { BOLD, REGULAR } from './pdfa';
import type { TemplateTheme } from './templates';

export interface TextStyle {
  bold?: boolean;
  size?: number;
  color?: string;
  align?: 'left' | 'right' | 'center';
  /** Wraps within `width`; without it the text is a single line. */
  width?: number;
  /** Clips wrapped text at this height with an ellipsis (guards against absurdly long input). */
  maxHeight?: number;
  lineGap?: number;
}

/**
 * Thin drawing layer over pdfkit: every call positions text absolutely and sets font, size and colour
 * explicitly, so no state leaks between blocks and pdfkit's own cursor never triggers a page break.
 */
export class Canvas {
  constructor(
    readonly doc: PDFKit.PDFDocument,
    readonly theme: TemplateTheme,
  ) {}

  private fontName(style: TextStyle): FontName {
    return style.bold ? this.theme.fonts.bold : this.theme.fonts.regular;
  }

  private apply(style: TextStyle): void {
    this.doc
      .font(style.bold ? BOLD : REGULAR)
      .fontSize(style.size ?? 9)
      .fillColor(style.color ?? this.theme.colors.text);
  }

  /**
   * Draws text with its top at y; returns the height used. Text that fits on one line is placed
   * directly (x computed for the alignment) instead of going through pdfkit's line wrapper, which
   * measures every word again and was the largest cost of a render.
   */
  text(raw: string, x: number, y: number, style: TextStyle = {}): number {
    if (raw === '') return 0;
    const value = printable(this.fontName(style), raw);
    this.apply(style);
    if (style.width === undefined || !value.includes('\n')) return this.line(value, x, y, style, style.maxHeight);
    // Paragraphs go line by line so that only lines that really need wrapping reach the wrapper.
    let used = 0;
    for (const line of value.split('\n')) {
      const room = style.maxHeight === undefined ? undefined : style.maxHeight - used;
      if (room !== undefined && room < this.doc.currentLineHeight(true)) break;
      used += line === '' ? this.doc.currentLineHeight(true) + (style.lineGap ?? 0) : this.line(line, x, y + used, style, room);
    }
    return used;
  }

  /** One line of text (font already applied); wraps only if it does not fit `style.width`. */
  private line(value: string, x: number, y: number, style: TextStyle, maxHeight: number | undefined): number {
    const doc = this.doc;
    const lineGap = style.lineGap ?? 0;
    const single = doc.currentLineHeight(true) + lineGap;
    if (style.width === undefined) {
      doc.text(value, x, y, { lineBreak: false });
      return single;
    }
    const width = doc.widthOfString(value);
    if (width <= style.width) {
      const free = style.width - width;
      const dx = style.align === 'right' ? free : style.align === 'center' ? free / 2 : 0;
      doc.text(value, x + dx, y, { lineBreak: false });
      return single;
    }
    const options: PDFKit.Mixins.TextOptions = { width: style.width, align: style.align ?? 'left', lineGap };
    if (maxHeight !== undefined) {
      options.height = maxHeight;
      options.ellipsis = true;
    }
    doc.text(value, x, y, options);
    // pdfkit leaves its cursor below the last line drawn, which is the wrapped height.
    return doc.y - y;
  }

  /** Single line right-aligned so that it ends at `right`. */
  textRight(value: string, right: number, y: number, style: TextStyle = {}): number {
    const width = this.width(value, style);
    return this.text(value, right - width, y, { ...style, width: undefined, align: 'left' });
  }

  width(value: string, style: TextStyle = {}): number {
    this.apply(style);
    return this.doc.widthOfString(printable(this.fontName(style), value));
  }

  /** Height of text in a column of `style.width` (one line per line unless one has to wrap). */
  height(raw: string, style: TextStyle): number {
    if (raw === '') return 0;
    const value = printable(this.fontName(style), raw);
    this.apply(style);
    const single = this.doc.currentLineHeight(true) + (style.lineGap ?? 0);
    if (style.width === undefined) return single * value.split('\n').length;
    let h = 0;
    for (const line of value.split('\n')) {
      h +=
        line === '' || this.doc.widthOfString(line) <= style.width
          ? single
          : this.doc.heightOfString(line, { width: style.width, lineGap: style.lineGap ?? 0 });
    }
    return style.maxHeight !== undefined ? Math.min(h, style.maxHeight) : h;
  }

  lineHeight(style: TextStyle = {}): number {
    this.apply(style);
    return this.doc.currentLineHeight(true);
  }

  hline(x1: number, x2: number, y: number, color = this.theme.colors.rule, width = 0.5): void {
    this.doc.save().lineWidth(width).strokeColor(color).moveTo(x1, y).lineTo(x2, y).stroke().restore();
  }

  rect(x: number, y: number, w: number, h: number, fill: string): void {
    this.doc.save().rect(x, y, w, h).fillColor(fill).fill().restore();
  }
}
