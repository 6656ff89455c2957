// @module-tag unit
// The I-JSON reader: a repeated member name is refused with its name and place; everything
// JSON.parse reads without duplicates is read the same (issue 20, finding 8).
import { describe, expect, it } from 'vitest';
import { countMemberNames, JsonTextError, parseJsonText } from '../src/index.ts';

const problem = (text: string) => {
  try {
    parseJsonText(text);
  } catch (e) {
    if (e instanceof JsonTextError) return e.problem;
    throw e;
  }
  return null;
};

describe('parseJsonText', () => {
  it.each([
    ['{"a":1,"a":2}', 'a', ''],
    ['{"a":1,"b":true,"a":1}', 'a', ''],
    ['{"outer":[{"x":{"k":"v","k":"w"}}]}', 'k', '/outer/0/x'],
    ['{"a":1,"\\u0061":2}', 'a', ''],
    ['[{"a/b":{"~":0,"~":1}}]', '~', '/0/a~1b'],
    ['{"__proto__":1,"__proto__":2}', '__proto__', ''],
  ])('refuses %s, naming %s at %j', (text, name, pointer) => {
    expect(problem(text)).toMatchObject({ kind: 'duplicate-member', name, pointer });
  });

  it.each([
    '{"a":1,"A":2,"a ":3}',
    '{"a":{"a":{"a":1}}}',
    '[{"a":1},{"a":2}]',
    '{"k":"a string with \\"quotes\\": and a colon","x":[":",":"]}',
    '"text"',
    '1e400',
    '{"__proto__":{"x":1}}',
  ])('reads %s as JSON.parse does', (text) => {
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });

  it('a syntax error is a syntax problem', () => {
    expect(problem('{"a":}')?.kind).toBe('syntax');
  });

  it('counts member names, not strings', () => {
    expect(countMemberNames('{"a":"b","c" : ["d:", {"e":1}]}')).toBe(3);
  });
});
