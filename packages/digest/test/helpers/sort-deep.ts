// The oracle of the canonical text: every object's keys sorted (JavaScript's default sort, the
// UTF-16 code-unit order RFC 8785 uses), then JSON.stringify.
export const sortDeep = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortDeep)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
        )
      : v;
