/** The judge family: stored LLM judge scores (EvalVerdict calls no model). */
import type { QueryRecord } from '../score.js';
import type { MetricDecl, MetricFamily } from './types.js';

type Dimension = 'groundedness' | 'correctness';

const score = (dim: Dimension) => (r: QueryRecord) => r.result?.judge?.[dim] ?? null;

/** 1 when the judge and the spot check differ by more than 1 point on a dimension both scored; null: none did. */
function disagreement(r: QueryRecord): number | null {
  const j = r.result?.judge;
  if (!j) return null;
  const pairs: Array<[number | null, number | null]> = [
    [j.groundedness, j.spotCheckGroundedness],
    [j.correctness, j.spotCheckCorrectness],
  ];
  const checked = pairs.filter(([a, b]) => a !== null && b !== null);
  if (checked.length === 0) return null;
  return checked.some(([a, b]) => Math.abs(a! - b!) > 1) ? 1 : 0;
}

const dimensionMetrics = (dim: Dimension): MetricDecl[] => [
  {
    id: `judge_${dim}_mean`,
    direction: 'higher',
    unit: 'score',
    definition: `mean stored judge ${dim} score (0-5)`,
    denominator: `queries with a judge ${dim} score`,
    perQuery: score(dim),
  },
  {
    id: `judge_${dim}_ge4_rate`,
    direction: 'higher',
    unit: 'ratio',
    definition: `share of judge ${dim} scores >= 4`,
    denominator: `queries with a judge ${dim} score`,
    perQuery: (r) => {
      const v = score(dim)(r);
      return v === null ? null : v >= 4 ? 1 : 0;
    },
  },
];

const JUDGE_METRICS: MetricDecl[] = [
  ...dimensionMetrics('groundedness'),
  ...dimensionMetrics('correctness'),
  {
    id: 'judge_disagreement_rate',
    direction: 'lower',
    unit: 'ratio',
    definition: 'judge and spot check differ by more than 1 point on groundedness or correctness (judge reliability)',
    denominator: 'queries with a spot check',
    perQuery: disagreement,
  },
];

export const judgeFamily: MetricFamily = { family: 'judge', declare: () => JUDGE_METRICS };
