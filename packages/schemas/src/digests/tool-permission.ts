import { derivedId, digestOf } from '@agent-contracts/digest';
import type { HumanInLoopBoundaryV1, ToolPermissionBoundaryV1 } from '../contracts/tool-permission.js';
import type { DigestRule } from '../digest-rules.js';

/** `ToolPermissionBoundaryV1.boundaryId`: `tpb-` + 24 hex of the digest of `{subject}`. */
export function computeToolPermissionBoundaryId(doc: Pick<ToolPermissionBoundaryV1, 'subject'>): string {
  return derivedId('tpb-', { subject: doc.subject }, 24);
}

/** `HumanInLoopBoundaryV1.boundaryId`: `hil-` + 24 hex of the digest of `{subject}`. */
export function computeHumanInLoopBoundaryId(doc: Pick<HumanInLoopBoundaryV1, 'subject'>): string {
  return derivedId('hil-', { subject: doc.subject }, 24);
}

/** `boundaryDigest` of either contract: digest of the whole document except `boundaryDigest`. */
export function computeBoundaryDigest(
  doc: (Omit<ToolPermissionBoundaryV1, 'boundaryDigest'> | Omit<HumanInLoopBoundaryV1, 'boundaryDigest'>) & {
    boundaryDigest?: string;
  },
): string {
  const { boundaryDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

const digestCovers = (members: string) =>
  `digestOf(the whole document without the \`boundaryDigest\` member): ${members}.`;

/** Digest rules of this area's contracts. */
export const TOOL_PERMISSION_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'ToolPermissionBoundaryV1',
    pointer: '/boundaryId',
    code: 'TOOL_PERMISSION_BOUNDARY_ID_MISMATCH',
    covers: '`"tpb-"` + the first 24 hex characters of digestOf(`{subject}`) (system and revision).',
    compute: (document) => [
      {
        pointer: '/boundaryId',
        expected: computeToolPermissionBoundaryId(document as ToolPermissionBoundaryV1),
      },
    ],
  },
  {
    contract: 'ToolPermissionBoundaryV1',
    pointer: '/boundaryDigest',
    code: 'TOOL_PERMISSION_BOUNDARY_DIGEST_MISMATCH',
    covers: digestCovers(
      'schemaVersion, boundaryId, subject, declaredAt, permissionOwners, dangerousOperations, automaticMode, adapterStates and fallbacks',
    ),
    compute: (document) => [
      { pointer: '/boundaryDigest', expected: computeBoundaryDigest(document as ToolPermissionBoundaryV1) },
    ],
  },
  {
    contract: 'HumanInLoopBoundaryV1',
    pointer: '/boundaryId',
    code: 'HUMAN_LOOP_BOUNDARY_ID_MISMATCH',
    covers: '`"hil-"` + the first 24 hex characters of digestOf(`{subject}`) (system and revision).',
    compute: (document) => [
      { pointer: '/boundaryId', expected: computeHumanInLoopBoundaryId(document as HumanInLoopBoundaryV1) },
    ],
  },
  {
    contract: 'HumanInLoopBoundaryV1',
    pointer: '/boundaryDigest',
    code: 'HUMAN_LOOP_BOUNDARY_DIGEST_MISMATCH',
    covers: digestCovers(
      'schemaVersion, boundaryId, subject, declaredAt, toolPermissionBoundaryId and actionClasses',
    ),
    compute: (document) => [
      { pointer: '/boundaryDigest', expected: computeBoundaryDigest(document as HumanInLoopBoundaryV1) },
    ],
  },
];
