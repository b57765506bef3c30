/** "; did you mean `x`?" for a misspelt key or name, or '' when no candidate is close. */
export function suggest(word: string, candidates: Iterable<string>): string {
  let best = '';
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? `; did you mean \`${best}\`?` : '';
}

/** Levenshtein distance, ignoring case. */
export function editDistance(a: string, b: string): number {
  const prev = new Array(b.length + 1).fill(0).map((_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(
        prev[j] + 1,
        prev[j - 1] + 1,
        diag + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1),
      );
      diag = tmp;
    }
  }
  return prev[b.length];
}
