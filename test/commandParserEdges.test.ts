/**
 * The command parser's edges, written for the mutants `npm run mutate` left in src/action/parseCommand.ts (issue
 * 44): GFM's own blocks, the limits at their exact values, and each problem in its own words. Every value is
 * computed inside its test (docs/mutation.md: a value computed while vitest collects the tests never sees a mutant).
 */
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../src/action/parseCommand.js';

const malformed = (problem: string) => ({ kind: 'malformed', problem });

describe('parseCommand: blocks GitHub Flavored Markdown adds are never commands', () => {
  it('a table whose header row starts with the command is a table, not a paragraph', () => {
    // CommonMark alone reads these two lines as one paragraph starting with the command.
    expect(parseCommand('/evalverdict accept -- x | y\n--- | ---')).toEqual({ kind: 'none' });
    // Without the delimiter row it is a paragraph, and a command.
    expect(parseCommand('/evalverdict accept -- x | y')).toEqual({ kind: 'accept', gates: [], reason: 'x | y' });
  });

  it('a footnote definition is never a command', () => {
    expect(parseCommand('[^1]: /evalverdict accept -- x')).toEqual({ kind: 'none' });
    expect(parseCommand('See [^1].\n\n[^1]: /evalverdict rerun')).toEqual({ kind: 'none' });
  });
});

describe('parseCommand: what the first line holds', () => {
  it('white space before the command that is paragraph text (a no-break space) is trimmed as a space is', () => {
    expect(parseCommand('\u00a0/evalverdict rerun')).toEqual({ kind: 'rerun' });
    expect(parseCommand('\u00a0/evalverdict accept hit@5 -- fine')).toEqual({
      kind: 'accept',
      gates: ['hit@5'],
      reason: 'fine',
    });
  });

  it('a body that is not a string is no command, even one whose text would be', () => {
    expect(parseCommand(['/evalverdict rerun'])).toEqual({ kind: 'none' });
    expect(parseCommand({ toString: () => '/evalverdict rerun', length: 15 })).toEqual({ kind: 'none' });
    expect(parseCommand(null)).toEqual({ kind: 'none' });
  });

  it('a body of exactly 65,536 characters is read; one more is not', () => {
    const at = (n: number) => `/evalverdict rerun\n\n${'x'.repeat(n - '/evalverdict rerun\n\n'.length)}`;
    expect(at(65_536)).toHaveLength(65_536);
    expect(parseCommand(at(65_536))).toEqual({ kind: 'rerun' });
    expect(parseCommand(at(65_537))).toEqual({ kind: 'none' });
  });

  it('/evalverdict alone, an unknown verb and rerun with words each say what is wrong, in their own words', () => {
    expect(parseCommand('/evalverdict')).toEqual(malformed('no command after /evalverdict'));
    expect(parseCommand('/evalverdict   ')).toEqual(malformed('no command after /evalverdict'));
    expect(parseCommand('/evalverdict merge')).toEqual(malformed('unknown command'));
    expect(parseCommand('/evalverdict merge -- x')).toEqual(malformed('unknown command'));
    expect(parseCommand('/evalverdict Stryker was here!')).toEqual(malformed('unknown command'));
    expect(parseCommand('/evalverdict rerun now')).toEqual(malformed('`rerun` takes no arguments'));
    expect(parseCommand('/evalverdict RERUN')).toEqual({ kind: 'rerun' });
    expect(parseCommand('/evalverdict ACCEPT -- ok')).toEqual({ kind: 'accept', gates: [], reason: 'ok' });
  });
});

describe('parseCommand: the reason and the gates', () => {
  it('`--` at the end of the line is an empty reason, not a missing one', () => {
    expect(parseCommand('/evalverdict accept --')).toEqual(malformed('the reason after `--` is empty'));
    expect(parseCommand('/evalverdict accept hit@5 --')).toEqual(malformed('the reason after `--` is empty'));
    expect(parseCommand('/evalverdict accept hit@5 --   ')).toEqual(malformed('the reason after `--` is empty'));
    expect(parseCommand('/evalverdict accept hit@5 --x')).toEqual(
      malformed('no `-- REASON`: say why the drop is accepted'),
    );
  });

  it('a reason of 300 characters is taken; 301 is too long', () => {
    const reason = (n: number) => 'r'.repeat(n);
    expect(parseCommand(`/evalverdict accept -- ${reason(300)}`)).toEqual({
      kind: 'accept',
      gates: [],
      reason: reason(300),
    });
    expect(parseCommand(`/evalverdict accept -- ${reason(301)}`)).toEqual(
      malformed('the reason is over 300 characters'),
    );
  });

  it('gate names are split on any run of white space', () => {
    expect(parseCommand('/evalverdict accept hit@5  \t recall@10 -- x')).toEqual({
      kind: 'accept',
      gates: ['hit@5', 'recall@10'],
      reason: 'x',
    });
  });

  it('twenty gates may be named; twenty-one may not', () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);
    expect(parseCommand(`/evalverdict accept ${names(20).join(' ')} -- x`)).toEqual({
      kind: 'accept',
      gates: names(20),
      reason: 'x',
    });
    expect(parseCommand(`/evalverdict accept ${names(21).join(' ')} -- x`)).toEqual(
      malformed('more than 20 gates named'),
    );
  });

  it('a gate name of 100 characters is taken; 101 is not a metric name', () => {
    const name = (n: number) => 'm'.repeat(n);
    expect(parseCommand(`/evalverdict accept ${name(100)} -- x`)).toEqual({
      kind: 'accept',
      gates: [name(100)],
      reason: 'x',
    });
    expect(parseCommand(`/evalverdict accept ${name(101)} -- x`)).toEqual(
      malformed('a gate name is not a metric name'),
    );
    expect(parseCommand('/evalverdict accept a`b -- x')).toEqual(malformed('a gate name is not a metric name'));
  });
});
