/**
 * When the action comments (the `comment` input). An existing sticky comment is always brought up to date
 * (unless `never`), so a stale red or green report never stays up; the modes differ only in when a first
 * comment is created:
 *
 *   always      create on every pull request run
 *   on-change   create only when the verdict is not `pass` (a warn or fail verdict, or an evaluation error);
 *               a PR whose report was never anything but green stays free of comments
 *   on-failure  create only when the verdict is `fail` (or an evaluation error)
 *   never       no comment API call at all (the job summary and outputs still carry the report)
 */
import type { Verdict } from '../gate/types.js';

export const COMMENT_MODES = ['always', 'on-change', 'on-failure', 'never'] as const;
export type CommentMode = (typeof COMMENT_MODES)[number];
/** `error`: the run could not be evaluated (bad database, bad config). */
export type Outcome = Verdict | 'error';

export interface CommentDecision {
  /** Touch the comments at all (find ours, update it). */
  publish: boolean;
  /** Create a comment when none of ours exists yet. */
  createIfMissing: boolean;
}

export function commentDecision(mode: CommentMode, outcome: Outcome): CommentDecision {
  switch (mode) {
    case 'never':
      return { publish: false, createIfMissing: false };
    case 'always':
      return { publish: true, createIfMissing: true };
    case 'on-change':
      return { publish: true, createIfMissing: outcome !== 'pass' };
    case 'on-failure':
      return { publish: true, createIfMissing: outcome === 'fail' || outcome === 'error' };
  }
}
