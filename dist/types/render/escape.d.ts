/**
 * Escaping untrusted text (queries, answers, snippets, ids, file names) for GitHub Markdown. After this a
 * value cannot break a table row, open or close HTML (so not `<details>` nor our hidden `<!-- -->` marker),
 * start a link, image, code span or emphasis, notify anyone (an `@` GitHub could read as a mention, an e-mail
 * address or a `user@SHA` commit gets a zero-width space after it; `hit@5` and `a@b` keep theirs plain), reference an
 * issue (`#123`, `GH-123`: a zero-width space inside) or link a commit (a 40-hex SHA: a zero-width space inside).
 * Invisible and bidi formatting characters are dropped, and lone surrogates shown as U+FFFD.
 */
export declare function escapeMarkdownText(text: string, maxLength?: number): string;
/** For a table cell: the same escaping; an empty value shows as an em dash so the row keeps its shape. */
export declare function escapeMarkdownCell(text: string | null | undefined, maxLength?: number): string;
/**
 * A metric id as a code span. Ids are ours, except the per-stage latency ids, which carry a `timings_ms` key from
 * the run database: one with anything but plain id characters is escaped like other untrusted text instead
 * (a `|` or a backtick inside a code span would still split the cell or end the span).
 */
export declare function metricCode(id: string): string;
