/**
 * The comment commands: `/evalgate accept [GATE ...] -- REASON` and `/evalgate rerun`, read from the
 * first non-empty line of a pull request comment. Pure; the text is untrusted and is returned as data only, to be
 * escaped wherever it is shown.
 */

export type ParsedCommand =
  | { kind: 'none' }
  | { kind: 'accept'; gates: string[]; reason: string }
  | { kind: 'rerun' }
  | { kind: 'malformed'; problem: string };

export const COMMAND_USAGE =
  'Usage: `/evalgate accept [GATE ...] -- REASON` accepts the named failed gates (every failed gate when none is named) for the head commit, with the reason; `/evalgate rerun` evaluates the head commit again. Both take write, maintain or admin permission on the repository.';

/** Gate names a command may list, and how long a name and the reason may be. */
const MAX_GATES = 20;
const MAX_NAME = 100;
export const MAX_REASON = 300;
const GATE_NAME = /^[^\s`<>]+$/;

export function parseCommand(body: unknown): ParsedCommand {
  if (typeof body !== 'string') return { kind: 'none' };
  const line =
    body
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const m = /^\/evalgate(?:\s+(.*))?$/i.exec(line);
  if (!m) return { kind: 'none' };
  const rest = (m[1] ?? '').trim();
  const [verb = '', ...args] = rest.split(/\s+/);
  if (verb.toLowerCase() === 'rerun') {
    return args.length === 0 && rest.length === verb.length
      ? { kind: 'rerun' }
      : { kind: 'malformed', problem: '`rerun` takes no arguments' };
  }
  if (verb.toLowerCase() !== 'accept')
    return { kind: 'malformed', problem: verb === '' ? 'no command after /evalgate' : 'unknown command' };
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
