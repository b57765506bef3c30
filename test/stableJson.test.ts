import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { round4 } from '../src/numberFormat.js';
import { canonicalJson, compactStableJson, stableJson } from '../src/stableJson.js';

/**
 * An oracle that shares no code with src/stableJson.ts: every key gets the prefix U+0001 (no key is then an array
 * index, so JSON.stringify keeps the keys in the order they were inserted, and the prefix keeps their text order),
 * and the prefix is taken out of the text again (no generated string holds U+0001, so `"\u0001` only opens a key).
 */
function oracle(value: unknown, round: boolean, indent: number | undefined): string {
  const prefixed = (v: unknown): unknown => {
    if (v === undefined || v === null) return null;
    if (typeof v === 'number') return Number.isFinite(v) ? (round ? round4(v) : v) : null;
    if (Array.isArray(v)) return v.map(prefixed);
    if (typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[key];
        if (x !== undefined) out[`\u0001${key}`] = prefixed(x);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(prefixed(value), null, indent).replaceAll('"\\u0001', '"');
}

const key = fc.oneof(
  fc.string({ maxLength: 6 }).filter((s) => !s.includes('\u0001')),
  fc.nat({ max: 200 }).map(String),
  fc.constantFrom(
    '0',
    '00',
    '01',
    '9',
    '10',
    '4294967294',
    '4294967295',
    '99999999999',
    '__proto__',
    '-1',
    '1.5',
    ' 1',
  ),
);
const leaf = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }).filter((s) => !s.includes('\u0001')),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}));

describe('stable JSON: keys sorted as text', () => {
  it('writes array-index keys in text order with the others, not first in numeric order', () => {
    const categories = { b: 1, 10: 2, 9: 3, a: { 2024: 'x', '2023-q4': 'y', 100: 'z' }, '01': 4 };
    expect(stableJson(categories)).toBe(
      '{\n  "01": 4,\n  "10": 2,\n  "9": 3,\n  "a": {\n    "100": "z",\n    "2023-q4": "y",\n    "2024": "x"\n  },\n  "b": 1\n}\n',
    );
    expect(canonicalJson(categories)).toBe('{"01":4,"10":2,"9":3,"a":{"100":"z","2023-q4":"y","2024":"x"},"b":1}');
    expect(
      compactStableJson(
        new Map<string, unknown>([
          ['10', 1 / 3],
          ['9', [NaN, undefined, {}]],
        ]),
      ),
    ).toBe('{"10":0.3333,"9":[null,null,{}]}');
    // no value in JSON: left out of an object, null in a list, as JSON.stringify does
    expect(compactStableJson({ 1: () => 1, 2: Symbol('s'), 3: [() => 1], a: undefined })).toBe('{"3":[null]}');
  });

  it('writes holes, toJSON values and boxed primitives as JSON.stringify does, with or without array-index keys', () => {
    const odd = {
      when: new Date(Date.UTC(2026, 10, 25)),
      holes: new Array(2),
      boxed: [new String('ab'), new Number(1.5), new Boolean(false)],
    };
    const expected = '{"boxed":["ab",1.5,false],"holes":[null,null],"when":"2026-11-25T00:00:00.000Z"}';
    expect(JSON.stringify(JSON.parse(expected))).toBe(expected);
    expect(compactStableJson(odd)).toBe(expected);
    // the same under an array-index key, where our own writer, not JSON.stringify, writes the text
    expect(compactStableJson({ 1: odd })).toBe(`{"1":${expected}}`);
    expect(stableJson({ 1: odd })).toBe(`${JSON.stringify({ 1: JSON.parse(expected) }, null, 2)}\n`);
  });

  it('matches an independent writer on any value, indented and compact', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(stableJson(v)).toBe(`${oracle(v, true, 2)}\n`);
        expect(compactStableJson(v)).toBe(oracle(v, true, undefined));
        expect(canonicalJson(v)).toBe(oracle(v, false, undefined));
      }),
      { numRuns: 2000 },
    );
  });
});
