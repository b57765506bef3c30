/**
 * The answers family: what the answer cites and says. WFGY example 08 defines several of these its own way; its
 * definitions are the `wfgy` profile overrides beside them (docs/golden-sets.md, "Metric profiles").
 */
import { claimPhraseFound } from '../answerChecks.js';
import type { QueryRecord } from '../score.js';
import { bool } from './types.js';
import type { MetricDecl, MetricFamily } from './types.js';
import { wfgyZero } from './profiles.js';

/** Whether WFGY counts a citation list: any list, even `citations: []`, or the refusal. */
const wfgyCitationListed = (r: QueryRecord): boolean =>
  (r.result!.answer!.citationsListed ?? r.result!.answer!.citations.length > 0) || r.refused === true;

const ANSWER_METRICS: MetricDecl[] = [
  {
    id: 'citation_coverage',
    direction: 'higher',
    unit: 'ratio',
    definition:
      'every citation resolves to a real chunk (chunks table: by chunk_id, path + line span, path + heading, or for a citation naming no lines, such as a PDF page or a code symbol, a chunk of its path; without it: a chunk_id or path some hit of the query carries); no citations counts as not covered',
    denominator: 'grounded (non-refusal) answers',
    perQuery: (r) => bool(r.citationsResolve),
  },
  {
    id: 'attribution_hit_rate',
    direction: 'higher',
    unit: 'ratio',
    definition: 'the answer cites at least one relevant chunk (a refusal counts 0)',
    denominator: 'answerable queries with a relevant expectation and an answer object',
    perQuery: (r) =>
      r.golden.answerable && r.hasExpectations && r.result?.answer ? (r.answered && r.citedRelevant ? 1 : 0) : null,
    profiles: {
      // WFGY's citation hit rate (its G4): an answerable question without gold ids counts, as a miss.
      wfgy: {
        ...wfgyZero('answerable queries with an answer object'),
        perQuery: (r) => (r.golden.answerable && r.result?.answer ? (r.answered && r.citedRelevant ? 1 : 0) : null),
      },
    },
  },
  {
    id: 'citation_hit_rate',
    direction: 'higher',
    unit: 'ratio',
    definition: 'the answer has at least one citation that is relevant',
    denominator: 'answerable queries with a relevant expectation that were answered (not refused)',
    perQuery: (r) => (r.golden.answerable && r.hasExpectations && r.answered ? (r.citedRelevant ? 1 : 0) : null),
  },
  {
    id: 'groundedness',
    direction: 'higher',
    unit: 'ratio',
    paired: true,
    definition:
      "every must_contain string is in the answer and no forbidden string is (exact substrings, as kebab's `contains`)",
    denominator: 'answers with must_contain or forbidden, refusals included, errored and timed-out results not',
    perQuery: (r) => bool(r.groundedText),
  },
  {
    id: 'answer_precision',
    direction: 'higher',
    unit: 'ratio',
    definition: 'the query is answerable and the answer cites a relevant chunk (precision over answered)',
    denominator: 'answered queries (not refused)',
    perQuery: (r) => (r.answered ? (r.golden.answerable && r.citedRelevant ? 1 : 0) : null),
    profiles: { wfgy: wfgyZero('answered queries (not refused)') },
  },
  {
    id: 'claim_containment',
    direction: 'higher',
    unit: 'ratio',
    definition: 'the gold_claim phrase is in the answer (case-insensitive, white space folded; a refusal counts 0)',
    denominator: 'queries with gold_claim',
    perQuery: (r) => bool(r.claimFound),
    profiles: {
      // WFGY's: any phrase of 5+ letters, digits, hyphens and spaces of the claim (claimPhraseFound), over every
      // answerable question, one without a claim counting 0.
      wfgy: {
        ...wfgyZero('answerable queries with an answer object'),
        definition:
          "a phrase of the gold_claim (a run of 5 or more letters, digits, hyphens and spaces, WFGY's rule) is in the answer, lower-cased (a refusal or no gold_claim counts 0)",
        perQuery: (r) =>
          r.golden.answerable && r.result?.answer
            ? r.answered && r.golden.goldClaim !== null && claimPhraseFound(r.golden.goldClaim, r.result.answer.text)
              ? 1
              : 0
            : null,
      },
    },
  },
  {
    id: 'citation_schema_compliance',
    direction: 'higher',
    unit: 'ratio',
    definition: 'the answer carries at least one citation or is a refusal',
    denominator: 'queries with an answer object',
    perQuery: (r) => (r.result?.answer ? (r.result.answer.citations.length > 0 || r.refused === true ? 1 : 0) : null),
    profiles: {
      // WFGY's: a citation list, even `citations: []`, or the refusal.
      wfgy: {
        ...wfgyZero('queries with an answer object'),
        definition: 'the answer carries a citation list (an empty one too) or is a refusal',
        perQuery: (r) => (r.result?.answer ? (wfgyCitationListed(r) ? 1 : 0) : null),
      },
    },
  },
  {
    id: 'recency_conflict_correctness',
    direction: 'higher',
    unit: 'ratio',
    definition:
      'cite_newer: cites a newer support and no older one; cite_both: cites at least one of each; acknowledge_both: the same, and the result does not say conflict_acknowledged: false',
    denominator: 'queries with recency_conflict_rule',
    perQuery: (r) => bool(r.recencyCorrect),
  },
  {
    id: 'hit_hallucination_rate',
    direction: 'lower',
    unit: 'ratio',
    definition:
      "hits whose snippet is not found in their chunk's text (white space folded, case-insensitive), or whose chunk is not in `chunks`",
    denominator: 'hits with a snippet, in runs with a chunks table (n counts hits)',
    reduce: {
      quantity: 'hits_snippet_missing',
      value: (r) => r.hitsSnippetMissing,
      by: 'ratio',
      over: { quantity: 'hits_with_snippet', value: (r) => r.hitsWithSnippet },
    },
  },
];

export const answersFamily: MetricFamily = { family: 'answers', declare: () => ANSWER_METRICS };
