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

  private apply(style: TextStyle): void {
    this.doc
      .font(style.bold ? BOLD : REGULAR)
      .fontSize(style.size ?? 9)
      .fillColor(style.color ?? this.theme.colors.text);
  }

  /** Draws text with its top at y; returns the height used. */
  text(value: string, x: number, y: number, style: TextStyle = {}): number {
    if (value === '') return 0;
    this.apply(style);
    const options: PDFKit.Mixins.TextOptions = {
      lineBreak: style.width !== undefined,
      width: style.width,
      align: style.align ?? 'left',
      lineGap: style.lineGap ?? 0,
    };
    if (style.maxHeight !== undefined) {
      options.height = style.maxHeight;
      options.ellipsis = true;
    }
    const height = style.width !== undefined ? this.height(value, style) : this.doc.currentLineHeight(true);
    this.doc.text(value, x, y, options);
    return height;
  }

  /** Single line right-aligned so that it ends at `right`. */
  textRight(value: string, right: number, y: number, style: TextStyle = {}): number {
    const width = this.width(value, style);
    return this.text(value, right - width, y, { ...style, width: undefined, align: 'left' });
  }

  width(value: string, style: TextStyle = {}): number {
    this.apply(style);
    return this.doc.widthOfString(value);
  }

  /** Height of wrapped text in a column of `style.width`. */
  height(value: string, style: TextStyle): number {
    if (value === '') return 0;
    this.apply(style);
    const h = this.doc.heightOfString(value, { width: style.width, lineGap: style.lineGap ?? 0 });
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
