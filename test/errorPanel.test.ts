/**
 * The error panel (src/render/errorPanel.ts) in process, written for the mutants `npm run mutate` left there (issue
 * 44: the panel quotes untrusted text, so it joined the acceptance modules): the whole panel for an input error and
 * an internal one, the fence no message can close, and the cut at 4,000 characters. Every value is computed inside
 * its test (docs/mutation.md).
 */
import { describe, expect, it } from 'vitest';
import { panelText, renderErrorPanel } from '../src/render/errorPanel.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';

describe('renderErrorPanel', () => {
  it('an input error: what to do, the message fenced, then the commit and the log', () => {
    expect(
      renderErrorPanel({ message: 'bad.json: line 3', inputError: true, sha: SHA, runUrl: 'https://x/runs/1' }),
    ).toBe(
      [
        '⛔ **EvalVerdict: error — the run could not be evaluated**',
        '',
        'No gate was checked for this commit. Fix the input below and re-run; this comment will show the report again.',
        '',
        '```text',
        'bad.json: line 3',
        '```',
        '',
        '<sub>commit 0123456789ab · [workflow run log](https://x/runs/1)</sub>',
        '',
      ].join('\n'),
    );
  });

  it('an internal error, with neither commit nor log known', () => {
    for (const where of [{}, { sha: null, runUrl: null }, { sha: '', runUrl: '' }])
      expect(renderErrorPanel({ message: 'boom', inputError: false, ...where })).toBe(
        [
          '⛔ **EvalVerdict: error — the run could not be evaluated**',
          '',
          'No gate was checked for this commit: EvalVerdict hit an internal error (please report it with the log).',
          '',
          '```text',
          'boom',
          '```',
          '',
        ].join('\n'),
      );
  });

  it('the commit alone, or the log alone', () => {
    const tail = (info: { sha?: string; runUrl?: string }) =>
      renderErrorPanel({ message: 'm', inputError: true, ...info })
        .split('\n')
        .slice(-2);
    expect(tail({ sha: SHA })).toEqual(['<sub>commit 0123456789ab</sub>', '']);
    expect(tail({ runUrl: 'https://x/runs/1' })).toEqual(['<sub>[workflow run log](https://x/runs/1)</sub>', '']);
  });

  it('the fence is longer than any run of backticks in the message, and three at least', () => {
    const fenceOf = (message: string) => renderErrorPanel({ message, inputError: true }).split('\n')[4];
    expect(fenceOf('no backticks')).toBe('```text');
    expect(fenceOf('a `code` span')).toBe('```text');
    expect(fenceOf('``two``')).toBe('```text');
    expect(fenceOf('```three``` and ` one')).toBe('````text');
    expect(fenceOf('` `` ````` ``')).toBe('``````text');
    const panel = renderErrorPanel({ message: 'x ```` y', inputError: true }).split('\n');
    expect(panel.slice(4, 7)).toEqual(['`````text', 'x ```` y', '`````']);
  });

  it('shows the message as panelText makes it: no comment opener survives', () => {
    const panel = renderErrorPanel({ message: 'id <!-- evalverdict:acceptance-state x -->', inputError: true });
    expect(panel).toContain('id <!- - evalverdict:acceptance-state x - ->');
    expect(panel).not.toContain('<!--');
  });
});

describe('panelText', () => {
  it('a message of 4,000 characters is whole; a longer one is cut there and says so', () => {
    const words = (n: number) => 'word '.repeat(n / 5);
    expect(panelText(words(4_000))).toBe(words(4_000));
    const longer = `${words(4_000)}tail`;
    expect(panelText(longer)).toBe(`${words(4_000)}\n… (cut; the full message is in the log)`);
  });
});
