import type { ContractEntry } from '../gates.js';
import type { NonNegativeInteger, Sha256Hex } from './common.js';

/**
 * The identity of one source body as it was actually delivered: which source, under which
 * contract version, and the SHA-256 and length of the exact bytes. Two deliveries are the same
 * content iff `sourceKey`, `contractVersion`, `digest` and `bytes` are all equal. The identity
 * hashes a body that is not part of the document, so a validator can check its shape only; the
 * party holding the bytes recomputes `digest` and `bytes`.
 */
export interface ContentIdentityV1 {
  /** Contract discriminator. */
  schemaVersion: 'ContentIdentityV1';
  /** Hash algorithm of `digest`; only SHA-256 is defined. */
  algorithm: 'sha256';
  /**
   * Key of the source the bytes came from, e.g. `profile://acme-api/README.md`: Unicode NFKC,
   * trimmed, `/` as the only separator (a `\` is rewritten to `/` when the key is built), no
   * control characters. At most 1024 characters.
   * @minLength 1
   * @maxLength 1024
   * @pattern ^[^\s\\\u0000-\u001f](?:[^\\\u0000-\u001f]*[^\s\\\u0000-\u001f])?$
   */
  sourceKey: string;
  /**
   * Version of the content contract the body was read under (the reader's interpretation of the
   * bytes); `"1"` unless the source declares another. At most 64 characters.
   * @minLength 1
   * @maxLength 64
   */
  contractVersion: string;
  /**
   * SHA-256 (lowercase hex) of the raw delivered bytes. For a JSON body delivered as a value
   * rather than as bytes, of its RFC 8785 canonical UTF-8 form instead (`digestOf(value)`).
   * @pattern ^[a-f0-9]{64}$
   */
  digest: Sha256Hex;
  /** Length in bytes of exactly what `digest` hashes (the raw bytes, or the canonical JSON form). */
  bytes: NonNegativeInteger;
}

/**
 * Binds a read to exactly one plan: the epoch, both plan identities and the target. A read,
 * observation or receipt that carries a binding must match the plan it names in every field.
 */
export interface ContextReadBindingV1 {
  /** Contract discriminator. */
  schemaVersion: 'ContextReadBindingV1';
  /**
   * The context epoch of the intent seed the plan was made for (`IntentSeedV1.contextEpoch`):
   * 1-256 characters without whitespace.
   * @minLength 1
   * @maxLength 256
   * @pattern ^\S+$
   */
  contextEpoch: string;
  /**
   * Invocation identity of the plan (`ContextReadPlanV2.planId`).
   * @pattern ^plan-[a-f0-9]{24}$
   */
  planId: string;
  /**
   * Content identity of the plan (`ContextReadPlanV2.planContentId`).
   * @pattern ^plan-content-[a-f0-9]{64}$
   */
  planContentId: string;
  /**
   * The resolved workspace root the plan targets (`ContextReadPlanV2.identity.activeRoot`),
   * `/`-separated, without a trailing `/` (except the root `/` itself), no control characters.
   * @minLength 1
   * @maxLength 4096
   * @pattern ^(/|[^\\\u0000-\u001f]*[^/\\\u0000-\u001f])$
   */
  activeRoot: string;
  /**
   * The project the plan targets inside `activeRoot` (`ContextReadPlanV2.identity.project`): one
   * path segment of at most 128 characters, not `.` or `..`, without `/`, `\`, control characters
   * or surrounding whitespace.
   * @minLength 1
   * @maxLength 128
   * @pattern ^(?!\.\.?$)[^\s/\\](?:[^/\\\u0000-\u001f]{0,126}[^\s/\\])?$
   */
  project: string;
}

/** Catalogue entries of this area, in spec order. */
export const CONTEXT_IDENTITY_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'ContentIdentityV1',
    gate: 'ContextAcquisitionGate',
    summary: 'The identity (source key, contract version, SHA-256, length) of one delivered source body.',
  },
  {
    name: 'ContextReadBindingV1',
    gate: 'ContextAcquisitionGate',
    summary: 'Binds a read, observation or receipt to exactly one plan, epoch and target.',
  },
];
