/**
 * Escaping untrusted text (queries, answers, snippets, ids, file names) for GitHub Markdown. After this a
 * value cannot break a table row, open or close HTML (so not `<details>` nor our hidden `<!-- -->` marker),
 * start a link, image, code span or emphasis, notify anyone (`@name` and `@org/team` get a zero-width space
 * after the `@`), or reference an issue (`#123`, `GH-123`: a zero-width space inside).
 */

// C0/C1 controls and bidi overrides (which can make a cell read differently from what it holds).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Characters with inline Markdown meaning anywhere in a line: code, emphasis, links and images (via the
// brackets), table pipes, strikethrough, math. Each gets a backslash (GFM escapes any ASCII punctuation).
// Block markers (#, -, 1.) only act at the start of a line, and escaped text never starts one.
const PUNCTUATION = /[\\`*_[\]|~$]/g;

export function escapeMarkdownText(text: string, maxLength = Infinity): string {
  let s = String(text).replace(CONTROL, '').replace(/\s+/g, ' ').trim();
  if (s.length > maxLength) s = `${s.slice(0, Math.max(1, maxLength - 1)).trimEnd()}…`;
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
    .replace(/@/g, '@&#8203;');
  return s;
}

/** For a table cell: the same escaping; an empty value shows as an em dash so the row keeps its shape. */
export function escapeMarkdownCell(text: string | null | undefined, maxLength = 160): string {
  if (text === null || text === undefined) return '—';
  // Checked after escaping: text of only controls or bidi marks is empty once they are dropped.
  return escapeMarkdownText(String(text), maxLength) || '—';
}
