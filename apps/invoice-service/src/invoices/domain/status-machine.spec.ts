import { canMove, isEditable } from './status-machine';

describe('invoice status machine', () => {
  it.each([
    ['OPEN', 'SENT', true],
    ['SENT', 'PAID', true],
    ['OPEN', 'PAID', true],
    ['DRAFT', 'CANCELLED', true],
    ['DRAFT', 'SENT', false],
    ['DRAFT', 'PAID', false],
    ['PAID', 'SENT', false],
    ['OPEN', 'CANCELLED', false],
    ['CANCELLED', 'DRAFT', false],
    ['SENT', 'OPEN', false],
  ] as const)('%s -> %s allowed: %s', (from, to, allowed) => {
    expect(canMove(from, to)).toBe(allowed);
  });
  it('only drafts are editable', () => {
    expect(isEditable('DRAFT')).toBe(true);
    expect(isEditable('OPEN')).toBe(false);
  });
});
