import { describe, expect, it } from 'vitest';
import { declaredCharset, decodeText, textProblem } from '../../src/docs/text.js';

describe('the text check (every way in)', () => {
  it('accepts UTF-8, a declared charset, and byte-order marks', () => {
    expect(decodeText(Buffer.from('# Café\n', 'utf8'))).toEqual({ ok: true, text: '# Café\n' });
    expect(decodeText(Buffer.from('# Café\n', 'latin1'), 'ISO-8859-1')).toEqual({ ok: true, text: '# Café\n' });
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# A', 'utf8')]))).toEqual({ ok: true, text: '# A' });
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Ü', 'utf16le')]))).toEqual({ ok: true, text: '# Ü' });
    expect(declaredCharset('text/html; charset="iso-8859-1"')).toBe('iso-8859-1');
    expect(declaredCharset('text/html')).toBeUndefined();
  });

  it('refuses invalid UTF-8, NUL bytes (in any charset) and unknown charsets, with the reason', () => {
    expect(decodeText(Buffer.from([0x23, 0x20, 0xe9, 0x74]))).toEqual({ ok: false, reason: 'it is not UTF-8 text (binary, or another encoding)' });
    expect(decodeText(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00]))).toEqual({ ok: false, reason: 'it is binary (it contains NUL bytes), not text' });
    expect(decodeText(Buffer.from([0x41, 0x00, 0x42]), 'iso-8859-1')).toMatchObject({ ok: false, reason: expect.stringContaining('NUL') });
    expect(decodeText(Buffer.from('x'), 'klingon-8')).toEqual({ ok: false, reason: 'it declares the unknown charset "klingon-8"' });
    expect(textProblem('fine')).toBeUndefined();
    expect(textProblem('a\u0000b')).toMatch(/NUL/);
  });
});
