/**
 * The comment commands: `/evalverdict accept [GATE ...] -- REASON` and `/evalverdict rerun`. A command is the first line
 * of a top-level paragraph of the comment, read as GitHub renders it (GitHub Flavored Markdown, parsed by
 * micromark): code blocks (fenced or indented), quotes, lists, HTML blocks and HTML comments are never commands,
 * so a writer quoting the syntax accepts nothing. One command per comment. Pure; the text is untrusted and is
 * returned as data only, to be escaped wherever it is shown.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

export type ParsedCommand =
  | { kind: 'none' }
  | { kind: 'accept'; gates: string[]; reason: string }
  | { kind: 'rerun' }
  | { kind: 'malformed'; problem: string };

export const COMMAND_USAGE =
  'Usage: `/evalverdict accept [GATE ...] -- REASON` accepts the named failed gates (every failed gate when none is named) for the head commit, with the reason; `/evalverdict rerun` evaluates the head commit again. Both take write, maintain or admin permission on the repository.';

/** Gate names a command may list, and how long a name and the reason may be. */
const MAX_GATES = 20;
const MAX_NAME = 100;
export const MAX_REASON = 300;
const GATE_NAME = /^[^\s`<>]+$/;

/** A comment longer than GitHub allows (65,536 characters) is no command: it is not parsed. */
const MAX_BODY = 65_536;
const COMMAND_LINE = /^\/evalverdict(?:\s+(.*))?$/i;

/** The first line of each top-level paragraph, as written (GitHub renders these lines as text). */
function paragraphFirstLines(body: string): string[] {
  const tree = fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return tree.children.flatMap((node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (node.type !== 'paragraph' || start === undefined || end === undefined) return [];
    return [body.slice(start, end).split(/\r?\n/)[0].trim()];
  });
}

export function parseCommand(body: unknown): ParsedCommand {
  if (typeof body !== 'string' || body.length > MAX_BODY || !/\/evalverdict/i.test(body)) return { kind: 'none' };
  const commands = paragraphFirstLines(body).filter((l) => COMMAND_LINE.test(l));
  if (commands.length === 0) return { kind: 'none' };
  if (commands.length > 1) return { kind: 'malformed', problem: 'one command per comment' };
  const m = COMMAND_LINE.exec(commands[0]);
  if (!m) return { kind: 'none' };
  const rest = (m[1] ?? '').trim();
  const [verb = '', ...args] = rest.split(/\s+/);
  if (verb.toLowerCase() === 'rerun') {
    return args.length === 0 && rest.length === verb.length
      ? { kind: 'rerun' }
      : { kind: 'malformed', problem: '`rerun` takes no arguments' };
  }
  if (verb.toLowerCase() !== 'accept')
    return { kind: 'malformed', problem: verb === '' ? 'no command after /evalverdict' : 'unknown command' };
  const after = rest.slice(verb.length);
  const split = after.search(/(^|\s)--(\s|$)/);
  if (split < 0) return { kind: 'malformed', problem: 'no `-- REASON`: say why the drop is accepted' };
  const names = after.slice(0, split).trim();
  const reason = after
    .slice(split)
    .replace(/^\s*--/, '')
    .trim();
  if (reason === '') return { kind: 'malformed', problem: 'the reason after `--` is empty' };
  if (reason.length > MAX_REASON) return { kind: 'malformed', problem: `the reason is over ${MAX_REASON} characters` };
  const gates = names === '' ? [] : names.split(/\s+/);
  if (gates.length > MAX_GATES) return { kind: 'malformed', problem: `more than ${MAX_GATES} gates named` };
  if (gates.some((g) => g.length > MAX_NAME || !GATE_NAME.test(g)))
    return { kind: 'malformed', problem: 'a gate name is not a metric name' };
  return { kind: 'accept', gates: [...new Set(gates)], reason };
}
