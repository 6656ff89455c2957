// `validate` and `validateBundle` (docs/protocol.md#validate-v1).

/** Params of `validate`. */
export interface ValidateParams {
  /** The document to judge (any JSON value). */
  readonly document: unknown;
  /** Judge the document as this contract instead of by its `schemaVersion`. */
  readonly contract?: string;
}

/** Params of `validateBundle`: a bundle file of `conformance/bundles/`. */
export interface ValidateBundleParams {
  /** The bundle kind, one of the implementation's `capabilities.bundles`. */
  readonly kind: string;
  /** The documents of the bundle (any JSON values). */
  readonly documents: readonly unknown[];
}

/** One issue as an implementation reports it: the stable code and the JSON Pointer. */
export interface ReportedIssue {
  /** The stable code of docs/rules.md. */
  readonly code: string;
  /** JSON Pointer of the value the issue judges (for `required` and `additionalProperties`, the object). */
  readonly path: string;
}

/** Result of `validate` and `validateBundle`. */
export interface ValidateResult {
  /** False iff there is at least one error. */
  readonly ok: boolean;
  /** The errors only (no warnings); empty when `ok` is true. */
  readonly issues: readonly ReportedIssue[];
}
