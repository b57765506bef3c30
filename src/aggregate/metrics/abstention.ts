/** The abstention family: refusing what should be refused, answering what should be answered. */
import { wfgyZero } from './profiles.js';
import type { MetricDecl, MetricFamily } from './types.js';

const ABSTENTION_METRICS: MetricDecl[] = [
  {
    id: 'refusal_correctness',
    direction: 'higher',
    unit: 'ratio',
    paired: true,
    definition: 'should-refuse queries that refused (abstention accuracy)',
    denominator: 'unanswerable queries whose refusal is known (abstained flag or an answer)',
    perQuery: (r) => (!r.golden.answerable && r.refused !== null ? (r.refused ? 1 : 0) : null),
  },
  {
    id: 'under_refusal_rate',
    direction: 'lower',
    unit: 'ratio',
    definition: 'should-refuse queries that answered (hallucination rate on unanswerable = 1 - refusal_correctness)',
    denominator: 'unanswerable queries whose refusal is known',
    perQuery: (r) => (!r.golden.answerable && r.refused !== null ? (r.refused ? 0 : 1) : null),
    profiles: { wfgy: wfgyZero('unanswerable queries whose refusal is known') },
  },
  {
    id: 'over_refusal_rate',
    direction: 'lower',
    unit: 'ratio',
    definition: 'answerable queries that refused',
    denominator: 'answerable queries whose refusal is known',
    perQuery: (r) => (r.golden.answerable && r.refused !== null ? (r.refused ? 1 : 0) : null),
    profiles: { wfgy: wfgyZero('answerable queries whose refusal is known') },
  },
];

export const abstentionFamily: MetricFamily = { family: 'abstention', declare: () => ABSTENTION_METRICS };
