/**
 * Escaping untrusted text (queries, answers, snippets, ids, file names) for GitHub Markdown. After this a
 * value cannot break a table row, open or close HTML (so not `<details>` nor our hidden `<!-- -->` marker),
 * start a link, image, code span or emphasis, notify anyone (an `@` GitHub could read as a mention, an e-mail
 * address or a `user@SHA` commit gets a zero-width space after it; `hit@5` and `a@b` keep theirs plain), reference an
 * issue (`#123`, `GH-123`: a zero-width space inside) or link a commit (a 40-hex SHA: a zero-width space inside).
 * Invisible and bidi formatting characters are dropped, and lone surrogates shown as U+FFFD.
 */

// C0/C1 controls, and every default-ignorable code point (Unicode's Default_Ignorable_Code_Point: what renders as
// nothing): bidi marks, embeddings, overrides and isolates (they can make a cell read differently from what it
// holds), zero-width space and joiners, the word joiner and invisible operators, the byte order mark, the soft
// hyphen, the combining grapheme joiner, the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Mongolian and
// other variation selectors, and the tag characters (U+E0000-U+E0FFF, which can carry hidden ASCII). Text that
// looks alike must read alike, so an id cannot pass for another (the list: docs/cli.md, "Text from inputs").
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u180e\p{Default_Ignorable_Code_Point}]/gu;
// A UTF-16 surrogate without its other half (a cut in the middle of a pair, or text that was never well-formed):
// shown as U+FFFD, as JSON and the GitHub API would otherwise refuse or mangle the whole body.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// A commit SHA (40 hex digits, or 64 for SHA-256) that GitHub would link to a commit: broken after its sixth digit,
// where too few digits remain before the break to name a commit.
const SHA = /\b([0-9a-f]{6})([0-9a-f]{34}(?:[0-9a-f]{24})?)\b/gi;
// Characters with inline Markdown meaning anywhere in a line: code, emphasis, links and images (via the
// brackets), table pipes, strikethrough, math. Each gets a backslash (GFM escapes any ASCII punctuation).
// Block markers (#, -, 1.) only act at the start of a line, and escaped text never starts one.
const PUNCTUATION = /[\\`*_[\]|~$]/g;
// An `@` GitHub could turn into something: a mention (`@name`, `@org/team`), found only where the `@` starts the
// text or follows a character other than an ASCII letter, digit or `_` (html-pipeline's MentionFilter, `(?:^|\W)@`,
// a name starting with a letter or digit); an e-mail autolink (`a@b.c`: a domain with a dot, its `_` escaped by
// now); a commit as `user@SHA` (7 or more hex digits). Either case (the `i` flag). Read on the escaped text, where an
// entity or backslash escape ends in `;` or in the character it stands for, so the character before the `@` is a
// word character exactly when it was one.
const LINKABLE_AT = /(?<![a-z0-9_])@(?=[a-z0-9])|@(?=(?:[\w-]|\\_)+(?:\.(?:[\w-]|\\_)+)+)|@(?=[0-9a-f]{7,}(?![\w-]))/gi;

export function escapeMarkdownText(text: string, maxLength = Infinity): string {
  let s = String(text).replace(LONE_SURROGATE, '\ufffd').replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  // Cut by code point: a pair is never split.
  if (s.length > maxLength) {
    let end = Math.max(1, maxLength - 1);
    if (/[\udc00-\udfff]/.test(s[end])) end--;
    s = `${s.slice(0, end).trimEnd()}…`;
  }
  s = s
    .replace(/&/g, '&amp;')
    // No issue or pull request references: `#123`, `owner/repo#123` and `GH-123` link (and cross-reference the
    // issue, which shows on its timeline) whatever backslashes precede them. Before any entity is written, whose
    // `&#8203;` this would split.
    .replace(/#(?=\d)/g, '#&#8203;')
    .replace(/\b(gh)-(?=\d)/gi, '$1&#8203;-')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(PUNCTUATION, (c) => `\\${c}`)
    // No autolinks: `https://x` and `www.x` would become links. A backslash is not enough: GFM's autolink
    // literals are also found in the text after escapes are resolved (`http\://x` reads as `http://x`, and
    // `_www.x` as `_www.x`), so a zero-width space goes inside the pattern instead.
    .replace(/:\/\//g, ':/&#8203;/')
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}&#8203;.`)
    .replace(SHA, '$1&#8203;$2')
    .replace(LINKABLE_AT, '@&#8203;');
  return s;
}

/** For a table cell: the same escaping; an empty value shows as an em dash so the row keeps its shape. */
export function escapeMarkdownCell(text: string | null | undefined, maxLength = 160): string {
  if (text === null || text === undefined) return '—';
  // Checked after escaping: text of only controls or bidi marks is empty once they are dropped.
  return escapeMarkdownText(String(text), maxLength) || '—';
}

/**
 * A metric id as a code span. Ids are ours, except the per-stage latency ids, which carry a `timings_ms` key from
 * the run database: one with anything but plain id characters is escaped like other untrusted text instead
 * (a `|` or a backtick inside a code span would still split the cell or end the span).
 */
export function metricCode(id: string): string {
  return /^[\w@.-]+$/.test(id) ? `\`${id}\`` : escapeMarkdownText(id, 80);
}
