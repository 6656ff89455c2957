// @module-tag unit
import { describe, expect, it } from 'vitest';
import { printable, printableLines, truncated } from '../src/index.ts';

describe('printable', () => {
  it('shows every C0, DEL and C1 control, line breaks included, as a \\u escape', () => {
    for (let c = 0; c < 0xa0; c++) {
      if (c >= 0x20 && c < 0x7f) continue;
      const ch = String.fromCharCode(c);
      expect(printable(`a${ch}b`)).toBe(`a\\u${c.toString(16).padStart(4, '0')}b`);
    }
  });

  it('neutralises bidi overrides, isolates and marks, zero-width characters and lone surrogates', () => {
    expect(printable('\u202eevil\u202c\u2066x\u2069\u200f\u200b\ufeff')).toBe(
      '\\u202eevil\\u202c\\u2066x\\u2069\\u200f\\u200b\\ufeff',
    );
    expect(printable('\ud800x\udc00')).toBe('\\ud800x\\udc00');
    expect(printable('ok \ud83d\ude00 é 中 \\u001b')).toBe('ok \ud83d\ude00 é 中 \\u001b');
  });

  it('draws nothing: a fake verdict stays on the line it came in', () => {
    const shown = printable('1 fail\r\x1b[2K\x1b[32m1110 pass\nCONFORMS\x1b[0m');
    expect(shown).not.toMatch(/\p{Cc}/u);
    expect(shown).toBe('1 fail\\u000d\\u001b[2K\\u001b[32m1110 pass\\u000aCONFORMS\\u001b[0m');
  });

  it('printableLines keeps line feeds and tabs, not carriage returns', () => {
    expect(printableLines('a\n\tb\r\x1b')).toBe('a\n\tb\\u000d\\u001b');
  });

  it('truncated never splits a surrogate pair', () => {
    expect(truncated('abc', 3)).toBe('abc');
    expect(truncated('abcd', 3)).toBe('ab…');
    expect(truncated('a\ud83d\ude00b', 3)).toBe('a…');
  });
});
