import type { ContractEntry } from '../gates.js';
import type { NonEmptyString, NonNegativeInteger, Sha256Hex } from './common.js';

/**
 * The identity of one source body as it was actually delivered: which source, under which
 * contract version, and the SHA-256 and length of the exact bytes. Two deliveries are the same
 * content iff `sourceKey`, `contractVersion`, `digest` and `bytes` are all equal.
 */
export interface ContentIdentityV1 {
  /** Contract discriminator. */
  schemaVersion: 'ContentIdentityV1';
  /** Hash algorithm of `digest`; only SHA-256 is defined. */
  algorithm: 'sha256';
  /**
   * Key of the source the bytes came from: Unicode NFKC, trimmed, `/` as the only separator
   * (a `\` is rewritten to `/` before hashing). At most 1024 characters.
   * @minLength 1
   * @maxLength 1024
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
   * SHA-256 of the raw delivered bytes. For JSON bodies, of the RFC 8785 canonical form instead.
   * @pattern ^[a-f0-9]{64}$
   */
  digest: Sha256Hex;
  /** Length of the hashed bytes. */
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
   * The context epoch of the intent seed the plan was made for.
   * @minLength 1
   * @maxLength 256
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
   * The resolved workspace root the plan targets, `/`-separated, without a trailing `/`.
   * @minLength 1
   * @maxLength 4096
   */
  activeRoot: string;
  /** The project the plan targets inside `activeRoot`. */
  project: NonEmptyString;
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
