/**
 * Issue 26: exact outputs of src/render/escape.ts that kill mutants which survived the Markdown suite (whose
 * checks parse the report and would not notice a dropped quote or a cut one character early).
 */
import { describe, expect, it } from 'vitest';
import { escapeMarkdownCell, escapeMarkdownText, metricCode } from '../src/render/escape.js';

describe('escapeMarkdownText / escapeMarkdownCell: quotes, the cut at the maximum length, an undefined cell', () => {
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

describe('escapeMarkdownText: invisible characters and commit SHAs', () => {
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

describe('invisible code points and lone surrogates', () => {
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

describe('an @ gets a zero-width space only where GitHub could read it', () => {
  const ZWSP_AT = '@&#8203;';

  it('a mention: the @ starts the text or follows anything but an ASCII letter, digit or _', () => {
    expect(escapeMarkdownText('@someone')).toBe(`${ZWSP_AT}someone`);
    expect(escapeMarkdownText('(@org/team)')).toBe(`(${ZWSP_AT}org/team)`);
    expect(escapeMarkdownText('cc @x')).toBe(`cc ${ZWSP_AT}x`);
    expect(escapeMarkdownText('a.@x, -@y')).toBe(`a.${ZWSP_AT}x, -${ZWSP_AT}y`);
    // escaped characters before it: the entity's `;` or the escaped character itself is what precedes the @
    expect(escapeMarkdownText('<@x &@y *@z')).toBe(`&lt;${ZWSP_AT}x &amp;${ZWSP_AT}y \\*${ZWSP_AT}z`);
    // a non-ASCII letter is not a word character to the mention rule: still broken
    expect(escapeMarkdownText('é@x')).toBe(`é${ZWSP_AT}x`);
    // a name starts with a letter or a digit, upper case too
    expect(escapeMarkdownText('@Z @9')).toBe(`${ZWSP_AT}Z ${ZWSP_AT}9`);
  });

  it('after a word character, or before what no name starts with, the @ stays plain', () => {
    for (const text of ['hit@5', 'mrr@10', 'nDCG@10', 'a@b', 'Z@x', '9@x', 'stage.embed@1', 'x@12ab'])
      expect(escapeMarkdownText(text)).toBe(text);
    // `_` is a word character: `x_@y` is no mention (the `_` itself is escaped)
    expect(escapeMarkdownText('x_@y')).toBe('x\\_@y');
    // nothing a name can start with after it
    expect(escapeMarkdownText('a @ b, @-x, @_x')).toBe('a @ b, @-x, @\\_x');
    expect(escapeMarkdownText('the furthest, hit@5, finds')).toBe('the furthest, hit@5, finds');
  });

  it('an e-mail address GitHub would link (a domain with a dot) is broken after the @', () => {
    expect(escapeMarkdownText('a@b.c')).toBe(`a${ZWSP_AT}b.c`);
    expect(escapeMarkdownText('ops@my-host.example.org')).toBe(`ops${ZWSP_AT}my-host.example.org`);
    // `_` in the domain is escaped before the @ is looked at
    expect(escapeMarkdownText('a@b_c.d')).toBe(`a${ZWSP_AT}b\\_c.d`);
    expect(escapeMarkdownText('a@b.c_d')).toBe(`a${ZWSP_AT}b.c\\_d`);
    expect(escapeMarkdownText('a@b._c')).toBe(`a${ZWSP_AT}b.\\_c`);
    expect(escapeMarkdownText('a@b.-c')).toBe(`a${ZWSP_AT}b.-c`);
    // a dot that ends the sentence is no domain
    expect(escapeMarkdownText('see mrr@10.')).toBe('see mrr@10.');
  });

  it('user@SHA (7 or more hex digits, a word of their own) is broken after the @', () => {
    expect(escapeMarkdownText('jlord@a5c3785')).toBe(`jlord${ZWSP_AT}a5c3785`);
    expect(escapeMarkdownText('jlord@A5C3785')).toBe(`jlord${ZWSP_AT}A5C3785`);
    // 6 digits, or hex running on into a word: no commit
    expect(escapeMarkdownText('jlord@a5c378')).toBe('jlord@a5c378');
    expect(escapeMarkdownText('jlord@a5c3785x')).toBe('jlord@a5c3785x');
    expect(escapeMarkdownText('jlord@a5c3785-x')).toBe('jlord@a5c3785-x');
  });
});
