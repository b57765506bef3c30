/**
 * The seeded generator and hash every resampling test draws from, so each p-value is reproducible: mulberry32
 * (Tommy Ettinger, 2017, public domain) and FNV-1a (Fowler, Noll, Vo; IETF draft-eastlake-fnv).
 */
/** mulberry32: a small, well-distributed 32-bit generator; seeded so every p-value is reproducible. */
export declare function seededRandom(seed: number): () => number;
/** A stable 32-bit hash (FNV-1a) so each metric gets its own stream from one seed. */
export declare function hashString(text: string): number;
