// Per-document memo of the values several semantic rules derive from the same document (a plan's
// source list, its full-read reasons, ...). Active only inside `withDerivedMemo`, which `validate`
// opens around one document's rules: the document is not changed while they run. Outside it (a
// rule's `check` called directly) every derivation is computed afresh.

// The WeakMap is made on the first derivation remembered: most contracts have none.
let open = false;
let scope: WeakMap<object, Map<unknown, unknown>> | null = null;

/** Run `fn` with the per-document memo of {@link perDocument} derivations open. */
export function withDerivedMemo<T>(fn: () => T): T {
  if (open) return fn();
  open = true;
  try {
    return fn();
  } finally {
    open = false;
    scope = null;
  }
}

/**
 * Wrap a pure derivation of a document so that, inside {@link withDerivedMemo}, it runs once per
 * document. Callers must treat the value as read-only.
 */
export function perDocument<D extends object, T>(derive: (doc: D) => T): (doc: D) => T {
  return (doc) => {
    if (!open) return derive(doc);
    scope ??= new WeakMap();
    let values = scope.get(doc);
    if (values === undefined) {
      values = new Map();
      scope.set(doc, values);
    } else if (values.has(derive)) return values.get(derive) as T;
    const value = derive(doc);
    values.set(derive, value);
    return value;
  };
}
