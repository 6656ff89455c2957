/**
 * Source of conformance/vectors/jcs.json. Each case gives the input as JSON text (so that the
 * consumer's own JSON parser is part of what is checked) and, where the expected canonical form
 * is fixed by RFC 8785 itself, that form typed in from the RFC so our implementation is checked
 * against the RFC rather than against itself.
 */
export interface VectorCase {
  id: string;
  description: string;
  /** Input as JSON text. */
  input: string;
  /** Expected canonical form, where an external source (the RFC) fixes it. */
  rfcCanonical?: string;
  /** Expected error code instead of a digest. */
  error?: 'DIGEST_INPUT_INVALID';
}

/** RFC 8785 Appendix B: IEEE 754 bit patterns and their required serialisation. */
export const RFC_NUMBER_VECTORS: ReadonlyArray<readonly [string, string]> = [
  ['0000000000000000', '0'],
  ['8000000000000000', '0'],
  ['0000000000000001', '5e-324'],
  ['8000000000000001', '-5e-324'],
  ['7fefffffffffffff', '1.7976931348623157e+308'],
  ['ffefffffffffffff', '-1.7976931348623157e+308'],
  ['4340000000000000', '9007199254740992'],
  ['c340000000000000', '-9007199254740992'],
  ['4430000000000000', '295147905179352830000'],
  ['44b52d02c7e14af5', '9.999999999999997e+22'],
  ['44b52d02c7e14af6', '1e+23'],
  ['44b52d02c7e14af7', '1.0000000000000001e+23'],
  ['444b1ae4d6e2ef4e', '999999999999999700000'],
  ['444b1ae4d6e2ef4f', '999999999999999900000'],
  ['444b1ae4d6e2ef50', '1e+21'],
  ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
  ['3eb0c6f7a0b5ed8d', '0.000001'],
  ['41b3de4355555553', '333333333.3333332'],
  ['41b3de4355555554', '333333333.33333325'],
  ['41b3de4355555555', '333333333.3333333'],
  ['41b3de4355555556', '333333333.3333334'],
  ['41b3de4355555557', '333333333.33333343'],
  ['becbf647612f3696', '-0.0000033333333333333333'],
  ['43143ff3c1cb0959', '1424953923781206.2'],
];

export const VECTOR_CASES: VectorCase[] = [
  {
    id: 'jcs-rfc-3.2.2-primitives',
    description: 'RFC 8785 section 3.2.2 example: numbers, string escapes, literals.',
    input:
      '{\n  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n  "literals": [null, true, false]\n}',
    rfcCanonical:
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
  },
  {
    id: 'jcs-rfc-3.2.3-sorting',
    description:
      'RFC 8785 section 3.2.3 example: keys sorted by UTF-16 code units, including a surrogate pair.',
    input:
      '{\n  "\\u20ac": "Euro Sign",\n  "\\r": "Carriage Return",\n  "\\ufb33": "Hebrew Letter Dalet With Dagesh",\n  "1": "One",\n  "\\ud83d\\ude00": "Emoji: Grinning Face",\n  "\\u0080": "Control",\n  "\\u00f6": "Latin Small Letter O With Diaeresis"\n}',
    rfcCanonical:
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  },
  {
    id: 'jcs-key-order-nested',
    description: 'Keys are sorted at every depth; array order is kept.',
    input: '{"z":{"b":2,"a":1},"a":[{"y":1,"x":2},3,"c"]}',
    rfcCanonical: '{"a":[{"x":2,"y":1},3,"c"],"z":{"a":1,"b":2}}',
  },
  {
    id: 'jcs-key-order-case',
    description: 'Upper-case letters sort before lower-case (code unit order, not locale order).',
    input: '{"b":1,"B":2,"a":3,"A":4,"_":5}',
    rfcCanonical: '{"A":4,"B":2,"_":5,"a":3,"b":1}',
  },
  {
    id: 'jcs-negative-zero',
    description: '-0 serialises as 0.',
    input: '{"n":-0,"m":[-0.0,0]}',
    rfcCanonical: '{"m":[0,0],"n":0}',
  },
  {
    id: 'jcs-large-and-small-numbers',
    description: 'Exponent boundaries of ECMAScript number serialisation.',
    input: '[1e21,1e20,123456789012345680000,1e-6,1e-7,0.1,1.5e300,-2.5e-300]',
    rfcCanonical: '[1e+21,100000000000000000000,123456789012345680000,0.000001,1e-7,0.1,1.5e+300,-2.5e-300]',
  },
  {
    id: 'jcs-integers-beyond-safe',
    description: 'Integers above 2^53 are IEEE 754 doubles: 9007199254740993 reads as 9007199254740992.',
    input: '[9007199254740993,-9007199254740993,4.0,10.00]',
    rfcCanonical: '[9007199254740992,-9007199254740992,4,10]',
  },
  {
    id: 'jcs-empty-containers',
    description: 'Empty objects and arrays, nested.',
    input: '{"a":{},"b":[],"c":[{}],"d":[[]]}',
    rfcCanonical: '{"a":{},"b":[],"c":[{}],"d":[[]]}',
  },
  {
    id: 'jcs-nested-arrays',
    description: 'Deeply nested arrays keep order and nesting.',
    input: '[[[[1,[2,[3]]]]],[],[[{"k":[]}]]]',
    rfcCanonical: '[[[[1,[2,[3]]]]],[],[[{"k":[]}]]]',
  },
  {
    id: 'jcs-control-characters',
    description: 'Control characters use the short escapes where they exist, else lowercase \\u00XX.',
    input: '"\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f\\u007f"',
    rfcCanonical: '"\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f\u007f"',
  },
  {
    id: 'jcs-unicode-unescaped',
    description: 'Non-ASCII characters are emitted as UTF-8, never escaped; "/" is not escaped.',
    input: '{"k":"\\u00e9\\u4e2d\\ud83d\\ude80\\/","\\u00e9":true}',
    rfcCanonical: '{"k":"\u00e9\u4e2d\ud83d\ude80/","\u00e9":true}',
  },
  {
    id: 'jcs-unicode-not-normalised',
    description: 'Strings are not Unicode-normalised: precomposed and decomposed forms differ.',
    input: '["\\u00e9","e\\u0301"]',
    rfcCanonical: '["\u00e9","e\u0301"]',
  },
  {
    id: 'jcs-whitespace-ignored',
    description: 'Insignificant whitespace in the input does not reach the canonical form.',
    input: ' {\n\t"a" : [ 1 , 2 ] ,\r\n "b" : { } }  ',
    rfcCanonical: '{"a":[1,2],"b":{}}',
  },
  {
    id: 'jcs-literals-top-level',
    description: 'A top-level literal is a valid input.',
    input: 'null',
    rfcCanonical: 'null',
  },
  {
    id: 'jcs-string-top-level',
    description: 'A top-level string is hashed with its quotes.',
    input: '"abc"',
    rfcCanonical: '"abc"',
  },
  {
    id: 'jcs-lone-high-surrogate',
    description: 'A lone high surrogate is not valid I-JSON and must be refused.',
    input: '{"k":"\\ud800"}',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-lone-low-surrogate-key',
    description: 'A lone low surrogate in a key must be refused.',
    input: '{"\\udc00":1}',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-duplicate-member',
    description:
      'An object that repeats a member name is not I-JSON (RFC 7493 section 2.3; RFC 8785 section 3.1) and must be refused, never read first-wins or last-wins.',
    input: '{"a":1,"a":2}',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-duplicate-member-same-value',
    description: 'A repeated member name is refused even when both values are equal.',
    input: '{"a":1,"b":true,"a":1}',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-duplicate-member-nested',
    description: 'A repeated member name deep inside the value is refused too.',
    input: '{"outer":[{"x":{"k":"v","k":"w"}}]}',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-duplicate-member-escaped',
    description:
      'Names are compared after unescaping: "a" and "\\u0061" are the same name, so the object is refused.',
    input: '{"a":1,"\\u0061":2}',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-similar-members-accepted',
    description: 'Names that differ (case, a trailing space) are distinct members, not duplicates.',
    input: '{"a":1,"A":2,"a ":3}',
  },
  // Not I-JSON, one code for the family (docs/spec/index.md, GEN-520).
  {
    id: 'jcs-number-overflow',
    description:
      'A number beyond the largest IEEE 754 double (1e400) has no JSON form in RFC 8785 and must be refused.',
    input: '{"n":1e400}',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-negative-number-overflow',
    description: 'A negative number beyond the double range (-1e400) must be refused.',
    input: '[-1e400]',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-number-underflow-is-zero',
    description: 'A number too small for a double (1e-400) is no fault: it parses to 0.',
    input: '{"n":1e-400}',
    rfcCanonical: '{"n":0}',
  },
  {
    id: 'jcs-syntax-error-unclosed',
    description: 'A text that is not JSON (an unclosed object) must be refused with DIGEST_INPUT_INVALID.',
    input: '{"a":1',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-syntax-error-trailing-comma',
    description: 'A trailing comma is not JSON and must be refused.',
    input: '[1,2,]',
    error: 'DIGEST_INPUT_INVALID',
  },
  {
    id: 'jcs-syntax-error-empty',
    description: 'An empty text is not JSON and must be refused.',
    input: '',
    error: 'DIGEST_INPUT_INVALID',
  },
];
