import { DigestError } from './errors.js';

// RFC 8785 (JSON Canonicalization Scheme). ECMAScript's own number and string serialisation
// are exactly what the RFC prescribes, so the work left is: refuse what JSON cannot carry,
// sort object keys by UTF-16 code units, and refuse lone surrogates (I-JSON, RFC 7493).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function invalid(path: string, what: string): DigestError {
  return new DigestError(
    'DIGEST_INPUT_INVALID',
    path,
    `Cannot canonicalize ${what} at "${path || '/'}": digests cover plain JSON data only. Remove or convert the value before hashing.`,
  );
}

function serializeString(value: string, path: string): string {
  if (LONE_SURROGATE.test(value)) throw invalid(path, 'a string with a lone UTF-16 surrogate');
  return JSON.stringify(value);
}

function serialize(value: unknown, path: string, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value, path);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw invalid(path, `the non-finite number ${String(value)}`);
      // JSON.stringify(-0) is "0", as RFC 8785 section 3.2.2.3 requires.
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (seen.has(value)) throw invalid(path, 'a cycle');
      seen.add(value);
      let out: string;
      if (Array.isArray(value)) {
        const parts: string[] = [];
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) throw invalid(`${path}/${i}`, 'an array hole');
          parts.push(serialize(value[i], `${path}/${i}`, seen));
        }
        out = `[${parts.join(',')}]`;
      } else {
        const proto = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) throw invalid(path, 'a non-plain object');
        const record = value as Record<string, unknown>;
        // Default sort compares UTF-16 code units, which is the RFC 8785 order.
        const keys = Object.keys(record).sort();
        const parts: string[] = [];
        for (const key of keys) {
          const childPath = `${path}/${escapePointerToken(key)}`;
          parts.push(`${serializeString(key, childPath)}:${serialize(record[key], childPath, seen)}`);
        }
        out = `{${parts.join(',')}}`;
      }
      seen.delete(value);
      return out;
    }
    default:
      throw invalid(path, `a value of type ${typeof value}`);
  }
}

/**
 * Serialise a JSON value per RFC 8785 (JCS).
 *
 * @throws {DigestError} `DIGEST_INPUT_INVALID` for anything that is not plain JSON data.
 * @example
 * canonicalize({ b: [1, -0], a: 'é' }) === '{"a":"é","b":[1,0]}';
 */
export function canonicalize(value: unknown): string {
  return serialize(value, '', new Set());
}
