import type { GoldenSet, RunData } from '../../types.js';
/** A run and its golden set from TREC files; `goldenItems`: the golden set as `evalverdict import trec` writes it. */
export declare function runFromTrec(qrelsText: string, qrelsSource: string, runText: string, runSource: string, createdAt: string): {
    run: RunData;
    golden: GoldenSet;
    goldenItems: unknown[];
};
