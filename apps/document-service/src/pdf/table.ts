import type { Canvas, TextStyle } from './canvas';
import { CONTENT } from './geometry';
import type { Flow } from './flow';

export interface TableColumn {
  header: string;
  /** Width in pt; exactly one column may use 0 to take the remaining width. */
  width: number;
  align?: 'left' | 'right';
}

export interface CellPart {
  text: string;
  bold?: boolean;
  muted?: boolean;
  size?: number;
}

export type Cell = string | CellPart[];

export interface TableRow {
  cells: Cell[];
  bold?: boolean;
  /** Draw a rule above this row (e.g. closing balance). */
  ruleAbove?: boolean;
}

const PAD_X = 4;
const PAD_Y = 2.6;
const BODY_SIZE = 8.5;
const HEADER_SIZE = 8;
/** A single row never grows beyond this; longer descriptions are cut with an ellipsis. */
const MAX_CELL_HEIGHT = 400;

function resolveWidths(columns: TableColumn[], total: number): number[] {
  const fixed = columns.reduce((sum, col) => sum + col.width, 0);
  const flex = columns.filter((col) => col.width === 0).length;
  if (flex > 1) throw new Error('at most one flexible column');
  return columns.map((col) => (col.width === 0 ? total - fixed : col.width));
}

/** Horizontal placement of a table; defaults to the full text width. */
export interface TableRegion {
  x: number;
  width: number;
}

function parts(cell: Cell, rowBold: boolean | undefined): CellPart[] {
  return typeof cell === 'string' ? [{ text: cell, bold: rowBold }] : cell;
}

/**
 * A table that flows over pages and repeats its header on every page it continues on. Written here
 * because pdfkit's built-in `doc.table()` neither breaks rows across pages with a repeated header nor
 * lets the renderer keep its own page chrome (watermark, running head) on the new page.
 */
export class FlowTable {
  private readonly widths: number[];
  private readonly left: number;
  private readonly right: number;

  constructor(
    private readonly c: Canvas,
    private readonly flow: Flow,
    private readonly columns: TableColumn[],
    region: TableRegion = { x: CONTENT.left, width: CONTENT.width },
  ) {
    this.widths = resolveWidths(columns, region.width);
    this.left = region.x;
    this.right = region.x + region.width;
  }

  /** Height of the header plus the given rows, without page breaks (for keeping blocks together). */
  measure(rows: TableRow[]): number {
    return this.headerHeight() + rows.reduce((sum, row) => sum + this.rowHeight(row), 0);
  }

  private headerHeight(): number {
    return this.c.lineHeight({ size: HEADER_SIZE, bold: true }) + 2 * PAD_Y + 1;
  }

  private style(part: CellPart, col: number, rowBold?: boolean): TextStyle {
    const { colors } = this.c.theme;
    return {
      bold: part.bold ?? rowBold,
      size: part.size ?? BODY_SIZE,
      color: part.muted ? colors.muted : colors.text,
      width: this.widths[col] - 2 * PAD_X,
      align: this.columns[col].align ?? 'left',
      maxHeight: MAX_CELL_HEIGHT,
    };
  }

  private rowHeight(row: TableRow): number {
    let max = 0;
    row.cells.forEach((cell, col) => {
      let h = 0;
      for (const part of parts(cell, row.bold)) h += this.c.height(part.text, this.style(part, col, row.bold)) + 0.5;
      max = Math.max(max, h);
    });
    return max + 2 * PAD_Y;
  }

  header(): void {
    const { c, flow } = this;
    const { colors } = c.theme;
    const height = this.headerHeight();
    if (c.theme.tableHeader === 'band' && colors.headerFill) {
      c.rect(this.left, flow.y, this.right - this.left, height, colors.headerFill);
    } else {
      c.hline(this.left, this.right, flow.y, colors.text, 0.8);
      c.hline(this.left, this.right, flow.y + height, colors.text, 0.5);
    }
    let x = this.left;
    this.columns.forEach((col, i) => {
      c.text(col.header, x + PAD_X, flow.y + PAD_Y + 0.5, {
        bold: true,
        size: HEADER_SIZE,
        color: colors.headerText,
        width: this.widths[i] - 2 * PAD_X,
        align: col.align ?? 'left',
        maxHeight: height,
      });
      x += this.widths[i];
    });
    flow.y += height;
  }

  /** Draws the header, then the rows, breaking pages as needed. */
  render(rows: TableRow[]): void {
    const { c, flow } = this;
    const { colors } = c.theme;
    const headerHeight = this.headerHeight();
    // Keep the header together with at least the first row.
    flow.ensure(headerHeight + (rows[0] ? this.rowHeight(rows[0]) : 0));
    this.header();
    rows.forEach((row, index) => {
      const height = this.rowHeight(row);
      if (flow.ensure(height)) this.header();
      if (colors.zebra && index % 2 === 1) c.rect(this.left, flow.y, this.right - this.left, height, colors.zebra);
      if (row.ruleAbove) c.hline(this.left, this.right, flow.y, colors.text, 0.6);
      let x = this.left;
      row.cells.forEach((cell, col) => {
        let y = flow.y + PAD_Y;
        for (const part of parts(cell, row.bold)) {
          y += c.text(part.text, x + PAD_X, y, this.style(part, col, row.bold)) + 0.5;
        }
        x += this.widths[col];
      });
      flow.y += height;
      if (!colors.zebra) c.hline(this.left, this.right, flow.y, colors.rule, 0.3);
    });
    if (colors.zebra) c.hline(this.left, this.right, flow.y, colors.rule, 0.6);
  }
}
