/**
 * Input text in one-line messages (oneLine) and in the terminal report (plainText): what renders as nothing, or
 * would hide or reorder text, is shown as an escape, so two ids that print alike are alike (issue 35).
 */
import { describe, expect, it } from 'vitest';
import { oneLine } from '../src/inputText.js';
import { plainText } from '../src/render/text.js';

const hidden: Array<[string, string]> = [
  ['\u{E0041}', '\\u{e0041}'], // a tag character (the U+E0000 block)
  ['\u115F', '\\u115f'], // Hangul choseong filler
  ['\u3164', '\\u3164'], // Hangul filler
  ['\u200B', '\\u200b'], // zero-width space
  ['\u202E', '\\u202e'], // right-to-left override
  ['\u00AD', '\\u00ad'], // soft hyphen
  ['\uD800', '\\ud800'], // a lone high surrogate
  ['\uDC00', '\\udc00'], // a lone low surrogate
  ['\u001b', '\\u001b'],
];

describe('oneLine and plainText show invisible code points as escapes', () => {
  it.each(hidden)('%j', (c, shown) => {
    expect(oneLine(`a${c}b`)).toBe(`a${shown}b`);
    expect(plainText(`a${c}b`)).toBe(`a${shown}b`);
  });

  it('keeps what is visible, astral characters and surrogate pairs included, and the short escapes', () => {
    expect(oneLine('q1 — émoji 😀 日本')).toBe('q1 — émoji 😀 日本');
    expect(plainText('q1 — émoji 😀 日本')).toBe('q1 — émoji 😀 日本');
    expect(oneLine('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
  });

  it('two run ids that differ only by hidden text no longer print alike', () => {
    expect(oneLine('main')).not.toBe(oneLine('main\u{E0020}\u{E0069}'));
  });
});
