// JSON text read as the spec reads it: I-JSON (RFC 7493), so an object with two members of the
// same name is refused, never read first-wins or last-wins (RFC 8785 and RFC 7493 exclude it; a
// parser in another language may keep the other value, so the two would judge different data).
//
// JSON.parse keeps the last of duplicate names silently. The fast path parses with it and counts
// the member names of the text (one linear scan, no allocation) against the own keys of the
// parsed value: they are equal exactly when no object repeats a name. Only when they differ does
// Momoa (@humanwhocodes/momoa, a maintained ECMA-404 parser that keeps every member) parse the
// text again to name the duplicate and where it is. `pnpm bench json-read` measures both paths.
import { type AnyNode, parse as momoaParse } from '@humanwhocodes/momoa';

/** Why a JSON text was refused. */
export type JsonTextProblem =
  | { readonly kind: 'syntax'; readonly message: string }
  | {
      readonly kind: 'duplicate-member';
      /** The repeated member name. */
      readonly name: string;
      /** JSON Pointer of the object that holds it twice. */
      readonly pointer: string;
      readonly message: string;
    };

/** Thrown by {@link parseJsonText}. */
export class JsonTextError extends Error {
  readonly problem: JsonTextProblem;

  constructor(problem: JsonTextProblem) {
    super(problem.message);
    this.name = 'JsonTextError';
    this.problem = problem;
  }
}

/** How many member names the text holds: strings followed, after whitespace, by a colon. */
export function countMemberNames(text: string): number {
  let count = 0;
  let inString = false;
  let afterString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) {
        inString = false;
        afterString = true;
      }
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    if (afterString) {
      if (c === 58) {
        count++;
        afterString = false;
      } else if (c !== 32 && c !== 9 && c !== 10 && c !== 13) afterString = false;
    }
  }
  return count;
}

/** The own keys of every object in a parsed value, counted (iteratively: no stack depth). */
function countKeys(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push(x);
      continue;
    }
    const keys = Object.keys(v);
    count += keys.length;
    for (const k of keys) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object') stack.push(x);
    }
  }
  return count;
}

const token = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The first object (in document order) that repeats a member name, by Momoa's tree. */
function findDuplicate(text: string): { name: string; pointer: string } | null {
  let doc: ReturnType<typeof momoaParse>;
  try {
    doc = momoaParse(text, { mode: 'json' });
  } catch {
    return null;
  }
  const stack: Array<{ node: AnyNode; pointer: string }> = [{ node: doc.body, pointer: '' }];
  while (stack.length) {
    const { node, pointer } = stack.pop()!;
    if (node.type === 'Object') {
      const seen = new Set<string>();
      for (const m of node.members) {
        const name = m.name.type === 'String' ? m.name.value : m.name.name;
        if (seen.has(name)) return { name, pointer };
        seen.add(name);
      }
      for (const m of [...node.members].reverse()) {
        const name = m.name.type === 'String' ? m.name.value : m.name.name;
        stack.push({ node: m.value, pointer: `${pointer}/${token(name)}` });
      }
    } else if (node.type === 'Array') {
      for (let i = node.elements.length - 1; i >= 0; i--)
        stack.push({ node: node.elements[i]!.value, pointer: `${pointer}/${i}` });
    }
  }
  return null;
}

/**
 * Parse JSON text, refusing an object that repeats a member name.
 *
 * @throws {JsonTextError} `syntax` (not JSON) or `duplicate-member` (with the name and the JSON
 *   Pointer of the object that repeats it).
 * @example
 * parseJsonText('{"a":1}'); // { a: 1 }
 * parseJsonText('{"a":1,"a":2}'); // throws: duplicate member "a" at the top level
 */
export function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // Out of stack (a text nested too deeply) is not a syntax error: the caller bounds depth.
    if (e instanceof RangeError) throw e;
    throw new JsonTextError({ kind: 'syntax', message: (e as Error).message });
  }
  if (value === null || typeof value !== 'object') return value;
  if (countKeys(value) === countMemberNames(text)) return value;
  const found = findDuplicate(text) ?? { name: '', pointer: '' };
  const where = found.pointer === '' ? 'the top-level object' : `the object at ${found.pointer}`;
  throw new JsonTextError({
    kind: 'duplicate-member',
    ...found,
    message: `${where} has two members named ${JSON.stringify(found.name)}; JSON objects must not repeat a name (RFC 7493 section 2.3)`,
  });
}
