import { setFlagsFromString } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapPacked } from '../src/arrays.js';

// V8 intrinsics, to ask what kind of array a function returns once it is optimized (see src/arrays.ts).
setFlagsFromString('--allow-natives-syntax');
const natives = (body: string) => new Function('f', 'a', body) as (f: unknown, a?: unknown) => unknown;
const prepare = natives('%PrepareFunctionForOptimization(f)');
const optimizeNext = natives('%OptimizeFunctionOnNextCall(f)');
const isHoley = natives('return %HasHoleyElements(a)') as (f: null, a: unknown) => boolean;

/** The array `make` returns after V8 has optimized it. */
function madeByOptimizedCode(make: (list: string[]) => string[]): string[] {
  prepare(make);
  make(['a', 'b']);
  make(['c']);
  optimizeNext(make);
  return make(['d', 'e']);
}

describe('mapPacked', () => {
  it('gives what Array.prototype.map gives', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.integer())), (list) => {
        const fn = (x: string | number, i: number) => `${i}:${String(x)}`;
        expect(mapPacked(list, fn)).toEqual(list.map(fn));
      }),
    );
  });

  it('returns a packed array from optimized code too, where an inlined map returns a holey one', () => {
    const withMapPacked = madeByOptimizedCode((list) => mapPacked(list, (s) => s.toUpperCase()));
    const withMap = madeByOptimizedCode((list) => list.map((s) => s.toUpperCase()));
    expect(withMapPacked).toEqual(['D', 'E']);
    expect(isHoley(null, withMapPacked)).toBe(false);
    // The reason mapPacked exists: if V8 stops doing this, the helper can go.
    expect(isHoley(null, withMap)).toBe(true);
  });
});
