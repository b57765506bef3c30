/**
 * Issue 26: exact outputs of src/render/escape.ts that kill mutants which survived the Markdown suite (whose
 * checks parse the report and would not notice a dropped quote or a cut one character early).
 */
import { describe, expect, it } from 'vitest';
import { escapeMarkdownCell, escapeMarkdownText } from '../src/render/escape.js';

describe('escapeMarkdownText / escapeMarkdownCell: survivors of mutation testing (issue 26)', () => {
  it('double quotes become &quot;, not deleted', () => {
    // each " -> &quot; (6 characters); the rest is plain text
    expect(escapeMarkdownText('say "hi"')).toBe('say &quot;hi&quot;');
  });

  it('text of exactly the maximum length is kept whole; one character more is cut to max - 1 plus an ellipsis', () => {
    // length 5 = max 5: no cut
    expect(escapeMarkdownText('abcde', 5)).toBe('abcde');
    // length 6 > 5: slice(0, 4) + '…' = 5 characters
    expect(escapeMarkdownText('abcdef', 5)).toBe('abcd…');
    // a cell's default max is 160: 160 characters stay whole
    expect(escapeMarkdownCell('x'.repeat(160))).toBe('x'.repeat(160));
  });

  it('an undefined cell shows an em dash, not "undefined"', () => {
    expect(escapeMarkdownCell(undefined)).toBe('—');
    expect(escapeMarkdownCell(null)).toBe('—');
  });
});
