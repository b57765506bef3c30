/**
 * `list.map(fn)`, always as a packed array of exactly `list.length` elements.
 *
 * Why not `Array.prototype.map`: once V8's optimizing compiler inlines `map`, the arrays it returns are holey, where
 * the builtin's (and JSON.parse's, and push's) are packed. The two kinds have different hidden classes, so every
 * function that reads arrays made both ways (a golden query's lists, made before and after the reader was
 * optimized) deoptimizes with "wrong map" and is compiled again, in each thread (bench/README.md, "What was kept";
 * docs/decisions/0006-packed-arrays.md). `slice` keeps the source's kind and allocates exactly.
 */
export declare function mapPacked<T, U>(list: readonly T[], fn: (item: T, index: number) => U): U[];
