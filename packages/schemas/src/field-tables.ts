// Renders the field table of a contract (or of a protocol message) from its generated JSON
// Schema, so the spec's tables never drift from the types. Nested objects are flattened with
// dotted paths; array items with `[]`; a `$ref` to a contract's schema is named, not expanded.
type Schema = { [key: string]: unknown };

const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function branches(schema: Schema): Schema[] {
  const alts = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return alts ?? [schema];
}

/** The contract a `$ref` names (`.../TaskRecoveryStateV5.schema.json` -> `TaskRecoveryStateV5`). */
const refName = (ref: string) => ref.replace(/^.*\//, '').replace(/\.schema\.json$/, '');

function typeOf(schema: Schema): string {
  if (typeof schema.$ref === 'string') return `${refName(schema.$ref)} document`;
  if ('const' in schema) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' | ');
  const alts = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alts) return alts.map(typeOf).join(' | ');
  const t = schema.type;
  const names = Array.isArray(t) ? (t as string[]) : t ? [t as string] : [];
  if (names.length === 0) return 'any';
  return names
    .map((n) => {
      if (n === 'array') {
        const items = schema.items as Schema | undefined;
        if (!items) return 'array';
        const kinds = objectBranches(items);
        if (kinds.length > 1) return `array of object (${kinds.length} kinds, each below)`;
        const alts = (items.anyOf ?? items.oneOf) as Schema[] | undefined;
        return alts ? `array of (${typeOf(items)})` : `array of ${typeOf(items)}`;
      }
      return n;
    })
    .join(' | ');
}

function constraints(schema: Schema): string[] {
  const out: string[] = [];
  const s = schema;
  if (typeof s.format === 'string') out.push(`format ${s.format}`);
  if (typeof s.pattern === 'string') out.push(`pattern \`${s.pattern}\``);
  if (typeof s.minLength === 'number') out.push(`minLength ${s.minLength}`);
  if (typeof s.maxLength === 'number') out.push(`maxLength ${s.maxLength}`);
  if (typeof s.minimum === 'number') out.push(`min ${s.minimum}`);
  if (typeof s.maximum === 'number' && s.maximum !== Number.MAX_SAFE_INTEGER) out.push(`max ${s.maximum}`);
  if (typeof s.exclusiveMinimum === 'number') out.push(`> ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === 'number') out.push(`< ${s.exclusiveMaximum}`);
  if (typeof s.minItems === 'number') out.push(`minItems ${s.minItems}`);
  if (typeof s.maxItems === 'number') out.push(`maxItems ${s.maxItems}`);
  if (s.uniqueItems === true) out.push('unique items');
  if (typeof s.maxProperties === 'number') out.push(`maxProperties ${s.maxProperties}`);
  const items = s.items as Schema | undefined;
  if (items && typeof items === 'object' && items.type !== 'object') {
    const inner = constraints(items);
    if (inner.length) out.push(`items: ${inner.join(', ')}`);
  }
  for (const alt of (s.anyOf ?? s.oneOf ?? []) as Schema[]) {
    if (alt.type !== 'object' && alt.type !== 'null') out.push(...constraints(alt));
  }
  return out;
}

interface Row {
  path: string;
  type: string;
  required: boolean;
  meaning: string;
}

/** The branches of a union that are objects with properties (a single object: itself). */
function objectBranches(schema: Schema): Schema[] {
  return branches(schema).filter((b) => b.type === 'object' && b.properties);
}

/**
 * The rows of the object branches of a value at `path`: one branch is flattened under it; two or
 * more each get a row of their own first (kind i of n, with the branch's description), so that
 * fields the kinds share are never listed twice without saying which kind they belong to.
 */
function walkBranches(kinds: Schema[], path: string, prefix: string, rows: Row[], depth: number): void {
  for (const [i, b] of kinds.entries()) {
    if (kinds.length > 1) {
      rows.push({
        path,
        type: `object, kind ${i + 1} of ${kinds.length}`,
        required: true,
        meaning: typeof b.description === 'string' ? b.description : '',
      });
    }
    walk(b, prefix, rows, depth + 1);
  }
}

function walk(schema: Schema, prefix: string, rows: Row[], depth: number): void {
  const props = schema.properties as Record<string, Schema> | undefined;
  if (!props) return;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, sub] of Object.entries(props)) {
    const path = `${prefix}${name}`;
    const c = constraints(sub);
    const desc = typeof sub.description === 'string' ? sub.description : '';
    rows.push({
      path,
      type: typeOf(sub),
      required: required.has(name),
      meaning: [desc, c.length ? `(${c.join('; ')})` : ''].filter(Boolean).join(' '),
    });
    if (depth >= 5) continue;
    walkBranches(objectBranches(sub), path, `${path}.`, rows, depth);
    for (const b of branches(sub)) {
      const items = b.items as Schema | undefined;
      if (b.type === 'array' && items)
        walkBranches(objectBranches(items), `${path}[]`, `${path}[].`, rows, depth);
    }
  }
}

/** The markdown table of one schema's properties. */
export function renderFieldTable(schema: Schema): string {
  const rows: Row[] = [];
  walk(schema, '', rows, 0);
  const lines = [
    '| Field | Type | Required | Meaning |',
    '|---|---|---|---|',
    ...rows.map(
      (r) => `| \`${r.path}\` | ${esc(r.type)} | ${r.required ? 'yes' : 'no'} | ${esc(r.meaning)} |`,
    ),
  ];
  return lines.join('\n');
}

const BLOCK = /<!-- fields:([A-Za-z0-9]+) -->\n[\s\S]*?<!-- \/fields:\1 -->/g;

/**
 * Replace every `<!-- fields:Name -->...<!-- /fields:Name -->` block of a markdown text with
 * the generated table. Unknown names are reported through `onUnknown`.
 */
export function fillFieldTables(
  markdown: string,
  schemas: Record<string, Schema>,
  onUnknown: (name: string) => void,
): string {
  return markdown.replace(BLOCK, (whole, name: string) => {
    const schema = schemas[name];
    if (!schema) {
      onUnknown(name);
      return whole;
    }
    return `<!-- fields:${name} -->\n<!-- Generated from schemas/contracts/${name}.schema.json by \`pnpm schemas:generate\`; edit the JSDoc in packages/schemas/src/contracts, not this table. -->\n${renderFieldTable(schema)}\n<!-- /fields:${name} -->`;
  });
}
