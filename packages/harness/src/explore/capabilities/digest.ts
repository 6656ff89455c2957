// Exploration of `digest`: JSON texts built from the values RFC 8785 is strict about (negative
// zero, numbers at the exponent boundary, integers beyond 2^53, keys that sort differently by
// code unit and by code point, lone surrogates, control characters), parsed by the
// implementation's own parser and compared with the reference canonicalizer.
import fc from 'fast-check';
import { type CapabilityExplorer, command } from '../command.js';

const NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '0.1',
  '-0.0',
  '1.0',
  '1e21',
  '1E21',
  '1e+21',
  '9.999999999999999e20',
  '1e-7',
  '0.000001',
  '1E30',
  '9007199254740993',
  '123456789012345680000',
  '5e-324',
  '1.7976931348623157e308',
  '4.35',
  '0.3',
  '1e400',
  '-1e-400',
  '2e-1',
];
const CHARS = [
  'a',
  'B',
  '\u00e9',
  '\u20ac',
  '\ud83d\ude00',
  '\ufb33',
  '\uffff',
  '\ud800',
  '\udc00',
  '\u0000',
  '\u001f',
  '\u007f',
  '"',
  '\\',
  '/',
  '\u2028',
  ' ',
];

const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 4 }).map((cs) => cs.join(''));
/** A JSON string literal (JSON.stringify escapes a lone surrogate as \udxxx, which is still JSON). */
const stringLiteral = text.map((s) => JSON.stringify(s));
const number = fc.oneof(
  fc.constantFrom(...NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.integer().map(String),
);

const { value } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    number,
    stringLiteral,
    fc.constantFrom('true', 'false', 'null'),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
  object: fc
    .uniqueArray(fc.tuple(text, tie('value')), { maxLength: 4, selector: ([k]) => k })
    .map((es) => `{${es.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
}));

export const digestExplorer: CapabilityExplorer = {
  name: 'digest',
  gate: 'Digests',
  subject: 'jcs',
  spec: 'docs/spec/index.md#conventions-apply-to-every-page',
  requires: ['digest'],
  setup: () => [],
  commands: () => [
    value.map((json) => command(`digest ${json}`, () => ({ method: 'digest', params: { json } }))),
  ],
};
