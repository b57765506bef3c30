/**
 * The seeded generator and hash every resampling test draws from, so each p-value is reproducible: mulberry32
 * (Tommy Ettinger, 2017, public domain) and FNV-1a (Fowler, Noll, Vo; IETF draft-eastlake-fnv).
 */

/** mulberry32: a small, well-distributed 32-bit generator; seeded so every p-value is reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash (FNV-1a) so each metric gets its own stream from one seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
