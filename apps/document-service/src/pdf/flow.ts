import type { Canvas } from './canvas';
import { BODY_BOTTOM, BODY_TOP_NEXT } from './geometry';

/**
 * Vertical cursor over the page body. `ensure(h)` starts a new page (through the renderer's
 * `onNewPage`, which draws the page chrome) when the next block would run into the footer.
 */
export class Flow {
  y: number;
  pages = 1;

  constructor(
    readonly c: Canvas,
    startY: number,
    private readonly onNewPage: () => void,
    readonly bottom = BODY_BOTTOM,
  ) {
    this.y = startY;
  }

  get remaining(): number {
    return this.bottom - this.y;
  }

  newPage(): void {
    this.c.doc.addPage();
    this.pages++;
    this.y = BODY_TOP_NEXT;
    this.onNewPage();
  }

  /** Returns true if a page break happened. */
  ensure(height: number): boolean {
    if (this.y + height <= this.bottom) return false;
    this.newPage();
    return true;
  }
}
