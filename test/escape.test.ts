/**
 * Issue 26: exact outputs of src/render/escape.ts that kill mutants which survived the Markdown suite (whose
 * checks parse the report and would not notice a dropped quote or a cut one character early).
 */
import { describe, expect, it } from 'vitest';
import { escapeMarkdownCell, escapeMarkdownText, metricCode } from '../src/render/escape.js';

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

describe('escapeMarkdownText: invisible characters and commit SHAs (issue 25)', () => {
  it('drops zero-width and bidi formatting characters', () => {
    const hidden = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u061c', '\u200e', '\u202e', '\u2066', '\u2069'];
    expect(escapeMarkdownText(`q${hidden.join('')}1`)).toBe('q1');
    // Text of invisible characters only is empty, so a cell shows an em dash.
    expect(escapeMarkdownCell('\u200b\u202e')).toBe('—');
  });

  it('breaks a 40- or 64-hex SHA after its sixth digit, and leaves shorter hex alone', () => {
    const sha = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
    expect(escapeMarkdownText(`run at ${sha}.`)).toBe(`run at 6dcb09&#8203;${sha.slice(6)}.`);
    const sha256 = `${sha}${'a'.repeat(24)}`;
    expect(escapeMarkdownText(sha256)).toBe(`6dcb09&#8203;${sha256.slice(6)}`);
    expect(escapeMarkdownText('6dcb09b')).toBe('6dcb09b');
    // Part of a longer word: not a SHA GitHub would link.
    expect(escapeMarkdownText(`x${sha}`)).toBe(`x${sha}`);
  });
});

describe('issue 35: invisible code points and lone surrogates', () => {
  it('tag characters (hidden ASCII), Hangul fillers and other default-ignorables are dropped', () => {
    const tags = [...'evil'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    // "run" + tag-encoded "evil" + U+E0001 (language tag) reads as "run": the tags are gone, so two ids differ visibly
    expect(escapeMarkdownText(`run${tags}\u{e0001}`)).toBe('run');
    expect(escapeMarkdownText('a\u115fb\u1160c\u3164d\uffa0e')).toBe('abcde');
    expect(escapeMarkdownText('a\u034fb\u00adc\ufe0fd\u{1d173}e\u180bf')).toBe('abcdef');
  });

  it('a lone surrogate shows as U+FFFD; a pair stays, and a cut never splits one', () => {
    expect(escapeMarkdownText('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc');
    expect(escapeMarkdownText('x\u{1f600}')).toBe('x\u{1f600}');
    // max 3: two characters kept, but the second is half of a pair: one kept, then the ellipsis
    expect(escapeMarkdownText('x\u{1f600}yz', 3)).toBe('x…');
    // max 4: 'xy' and a half pair would be 3 units: the pair goes whole; max 5 keeps it
    expect(escapeMarkdownText('xy\u{1f600}z', 4)).toBe('xy…');
    expect(escapeMarkdownText('xy\u{1f600}zz', 5)).toBe('xy\u{1f600}…');
    // max 2: one unit before the ellipsis, half of the pair: none kept (it kept the lone half)
    expect(escapeMarkdownText('\u{1f600}x', 2)).toBe('…');
  });

  it('a metric id is a code span only when all of it is plain id characters', () => {
    expect(metricCode('latency_ms.embed@1')).toBe('`latency_ms.embed@1`');
    // a `|` after plain characters would split the table cell inside a code span: escaped text instead
    expect(metricCode('stage|x')).toBe('stage\\|x');
  });
});
