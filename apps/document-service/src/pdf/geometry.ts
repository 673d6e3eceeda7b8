/**
 * A4 page grid after DIN 5008 Form B (all values in PDF points; 1 mm = 72 / 25.4 pt):
 * letterhead 45 mm, address field 20 mm from the left and 45 mm from the top (85 x 45 mm, of which
 * the first 17.7 mm hold the return address), information block from 125 mm, fold marks at 105 mm and
 * 210 mm, punch mark at 148.5 mm, left text margin 25 mm, right margin 20 mm.
 */
export const MM = 72 / 25.4;
export const mm = (v: number): number => v * MM;

export const PAGE = { width: mm(210), height: mm(297) } as const;

export const MARGIN = { left: mm(25), right: mm(20) } as const;
export const CONTENT = {
  left: MARGIN.left,
  right: PAGE.width - MARGIN.right,
  width: PAGE.width - MARGIN.left - MARGIN.right,
} as const;

export const LETTERHEAD = { top: mm(12), height: mm(33) } as const;
export const LOGO_SLOT = { x: CONTENT.right - mm(60), y: mm(10), width: mm(60), height: mm(22) } as const;

export const ADDRESS_FIELD = {
  x: mm(20),
  y: mm(45),
  width: mm(85),
  height: mm(45),
  /** Text inside the field starts at 25 mm, the text margin. */
  textX: mm(25),
  returnZoneHeight: mm(17.7),
} as const;

export const INFO_BLOCK = { x: mm(125), y: mm(50), width: CONTENT.right - mm(125) } as const;

export const FOLD_MARKS = [mm(105), mm(210)] as const;
export const PUNCH_MARK = mm(148.5);

/** First body line on page 1 (below the address field) and on continuation pages. */
export const BODY_TOP_FIRST = mm(98.5);
export const BODY_TOP_NEXT = mm(27);

export const FOOTER = { ruleY: PAGE.height - mm(24), textY: PAGE.height - mm(22) } as const;
/** Body content must end here; below are page number and footer. */
export const BODY_BOTTOM = FOOTER.ruleY - mm(6.5);
