import type { ContractEntry } from '../gates.js';
import type { ArchitectureFieldName, ContractDocumentRef, EvidenceRef } from './architecture-report.js';
import type { SystemSubjectRef } from './capability-domain.js';
import type { Timestamp } from './common.js';

/**
 * What a claim is about: `behaviour` (what the running system does: a run, a refusal, a write, a
 * reply), `structure` (how the system is composed: which component owns what, which contract or
 * file exists), `design` (an intention, rationale or plan not yet observable in behaviour).
 */
export type EvidenceClaimClass = 'behaviour' | 'structure' | 'design';

/**
 * A reference to another contract's document, or `null` when the evidence is an artefact that is
 * not a contract document (a log, a conformance report line, a test file).
 */
export type NullableContractDocumentRef = ContractDocumentRef | null;

/**
 * One piece of evidence of a claim: an `EvidenceRef` (kind, locator, digest) that, when it is a
 * document of a contract of this spec (a `LocalTaskTraceReplayV1`, a fixture), also names that
 * document by contract, id and digest.
 */
export interface EvidenceMatrixEntry extends EvidenceRef {
  /**
   * The contract document the entry is, or `null` for an artefact that is not one. When set,
   * `digest` equals its `documentDigest`: the artefact is the document in its RFC 8785 form.
   */
  document: NullableContractDocumentRef;
}

/** One claim and the evidence behind it. */
export interface EvidenceMatrixClaim {
  /**
   * The claim's id, unique within the matrix, e.g. `replay-writes-nothing`.
   * @pattern ^[a-z0-9]+(-[a-z0-9]+)*$
   * @maxLength 128
   */
  claimId: string;
  /**
   * The claim, as one sentence, e.g. `A dispatched mutation is never retried automatically.`
   * @minLength 1
   * @maxLength 1000
   */
  claim: string;
  /** `behaviour`, `structure` or `design` (see the page's Enumerations). */
  claimClass: EvidenceClaimClass;
  /**
   * `true` when the claim is about behaviour this revision changes; only a `behaviour` claim can
   * be a behaviour change, and a verified one needs pinned `replay` or `tests` evidence.
   */
  behaviourChange: boolean;
  /** The architecture report field the claim supports, or `null` for a claim about the system as a whole. */
  field: ArchitectureFieldName | null;
  /**
   * The evidence, in the order a reader should check it.
   * @maxItems 32
   */
  evidence: EvidenceMatrixEntry[];
  /**
   * `verified` only when the evidence meets the claim class's rule (a `behaviour` claim: a pinned
   * entry of a direct kind; `structure` and `design`: a pinned entry of any kind); `unverified` otherwise.
   */
  status: 'verified' | 'unverified';
}

/**
 * The ReplayObservabilityGate output of one agent system revision: each claim about the system,
 * its class, and evidence that points at real documents and artefacts by digest.
 */
export interface EvidenceMatrixV1 {
  /** Contract discriminator. */
  schemaVersion: 'EvidenceMatrixV1';
  /**
   * `evmx-` + the first 24 hex characters of the digest of `{subject, generatedAt}`.
   * @pattern ^evmx-[a-f0-9]{24}$
   */
  matrixId: string;
  /** The system and revision the claims are about. */
  subject: SystemSubjectRef;
  /** When the matrix was written. */
  generatedAt: Timestamp;
  /**
   * The claims, unique by `claimId`.
   * @minItems 1
   * @maxItems 128
   */
  claims: EvidenceMatrixClaim[];
  /**
   * Digest of the whole document except `matrixDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  matrixDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const EVIDENCE_MATRIX_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'EvidenceMatrixV1',
    gate: 'ReplayObservabilityGate',
    summary:
      'The claim -> evidence matrix of one agent system revision: each claim classed behaviour, structure or design, its evidence pinned by digest or naming contract documents by digest.',
  },
];
