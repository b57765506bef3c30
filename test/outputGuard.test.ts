/**
 * Outputs never overwrite inputs (issue 22): an output path that is an input file (the same path, through a
 * symbolic link, or a hard link to it) is refused with exit 2 before anything is read or written, and the input's
 * bytes are unchanged.
 */
import { copyFileSync, linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, STACK_LINE, tempDir } from './helpers/runDb.js';
import { repoRoot } from './shared.js';

afterAll(removeTempDirs);

/** The fixtures copied into a fresh directory (the tests try to overwrite them). */
function workspace() {
  const dir = tempDir();
  for (const name of ['baseline.sqlite', 'candidate.sqlite', 'golden.yaml']) {
    copyFileSync(join(repoRoot, 'fixtures', name), join(dir, name));
  }
  writeFileSync(join(dir, 'gates.yml'), 'gates:\n  - metric: hit@10\n    min: 0.1\n');
  return {
    dir,
    baseline: join(dir, 'baseline.sqlite'),
    candidate: join(dir, 'candidate.sqlite'),
    golden: join(dir, 'golden.yaml'),
    config: join(dir, 'gates.yml'),
  };
}

type Input = 'baseline' | 'candidate' | 'golden' | 'config';
const INPUT_NAMES: Record<Input, string> = {
  baseline: 'baseline database',
  candidate: 'candidate database',
  golden: 'golden set',
  config: 'gate config',
};

async function expectRefused(args: string[], file: string, message: string[]): Promise<void> {
  const before = readFileSync(file);
  const res = await runCli(args);
  expect(res.status).toBe(2);
  expect(res.stdout).toBe('');
  expect(res.stderr).not.toMatch(STACK_LINE);
  expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
  for (const part of message) expect(res.stderr).toContain(part);
  expect(readFileSync(file).equals(before)).toBe(true);
}

describe('compare: an output flag naming an input is refused, the input unchanged', () => {
  for (const flag of ['--json', '--markdown', '--markdown-full']) {
    for (const input of ['baseline', 'candidate', 'golden', 'config'] as Input[]) {
      it(`${flag} = the ${INPUT_NAMES[input]}`, async () => {
        const w = workspace();
        const args = ['compare', w.baseline, w.candidate, '--golden', w.golden, '--config', w.config];
        await expectRefused([...args, flag, w[input]], w[input], [
          `evalverdict: ${flag} ${w[input]} is the ${INPUT_NAMES[input]} ${w[input]}: an output never replaces an input`,
        ]);
      });
    }
    it(`${flag} through a symbolic link to the candidate, and through a hard link`, async () => {
      const w = workspace();
      const viaSymlink = join(w.dir, 'report-link.json');
      symlinkSync(w.candidate, viaSymlink);
      const args = ['compare', w.baseline, w.candidate, '--golden', w.golden];
      await expectRefused([...args, flag, viaSymlink], w.candidate, [
        `${flag} ${viaSymlink} is the candidate database`,
      ]);
      const viaHardLink = join(w.dir, 'hard.md');
      linkSync(w.golden, viaHardLink);
      await expectRefused([...args, flag, viaHardLink], w.golden, [`${flag} ${viaHardLink} is the golden set`]);
    });
    it(`${flag} = the candidate given through a symbolic link`, async () => {
      const w = workspace();
      const link = join(w.dir, 'cand-link.sqlite');
      symlinkSync(w.candidate, link);
      await expectRefused(['compare', w.baseline, link, '--golden', w.golden, flag, w.candidate], w.candidate, [
        `${flag} ${w.candidate} is the candidate database ${link}`,
      ]);
    });
  }

  it('a report path that is no input is written as before', async () => {
    const w = workspace();
    const out = join(w.dir, 'report.json');
    const res = await runCli(['compare', w.baseline, w.candidate, '--golden', w.golden, '--json', out]);
    expect(res.status).toBe(0); // the fixtures' real drops are within the default gates' margin 0.1
    expect(JSON.parse(readFileSync(out, 'utf8')).verdict).toBe('pass');
  });
});

describe('import trec and golden convert', () => {
  it('import trec --out or --golden-out naming the qrels or run file, even with --force', async () => {
    const dir = tempDir();
    const qrels = join(dir, 'qrels.txt');
    const run = join(dir, 'run.txt');
    writeFileSync(qrels, '1 0 d1 1\n');
    writeFileSync(run, '1 Q0 d1 1 1.0 r\n');
    await expectRefused(['import', 'trec', '--qrels', qrels, '--run', run, '--out', run, '--force'], run, [
      `--out ${run} is the --run file ${run}`,
    ]);
    await expectRefused(
      [
        'import',
        'trec',
        '--qrels',
        qrels,
        '--run',
        run,
        '--out',
        join(dir, 'o.sqlite'),
        '--golden-out',
        qrels,
        '--force',
      ],
      qrels,
      [`--golden-out ${qrels} is the --qrels file ${qrels}`],
    );
  });

  it('golden convert OUT a hard link to IN, with --force', async () => {
    const w = workspace();
    const out = join(w.dir, 'same.jsonl');
    linkSync(w.golden, out);
    await expectRefused(['golden', 'convert', w.golden, out, '--force'], w.golden, [`OUT ${out} is the golden set IN`]);
  });
});
