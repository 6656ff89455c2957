// Semantic and bundle rules of ToolPermissionBoundaryV1 and HumanInLoopBoundaryV1
// (docs/spec/tool-permission-boundary-gate.md). Identity and digests are DigestRules with their
// own codes in @agent-contracts/schemas.
import {
  HOST_OWNED_PERMISSION_CLASSES,
  type HumanInLoopBoundaryV1,
  type HumanLoopActionClass,
  PERMISSION_ADAPTER_STATES,
  type ToolPermissionBoundaryV1,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { bundleRule, contractRules, issue, laterDuplicates } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const TOOL = 'ToolPermissionBoundaryV1';
const HUMAN = 'HumanInLoopBoundaryV1';
const BUNDLE = 'tool-permission-boundary';
const PAGE = 'docs/spec/tool-permission-boundary-gate.md';
const TOOL_INVARIANTS = `${PAGE}#toolpermissionboundaryv1-invariants`;
const HUMAN_INVARIANTS = `${PAGE}#humaninloopboundaryv1-invariants`;
const BUNDLES = `${PAGE}#bundles`;

const { rule: toolRule, issue: toolIssue } = contractRules<ToolPermissionBoundaryV1>(TOOL, TOOL_INVARIANTS);
const { rule: humanRule, issue: humanIssue } = contractRules<HumanInLoopBoundaryV1>(HUMAN, HUMAN_INVARIANTS);

/** The keyed lists of a tool boundary, each with the member that must be unique in it. */
const KEYED_LISTS = [
  { list: 'permissionOwners', key: 'permissionClass' },
  { list: 'dangerousOperations', key: 'operationId' },
  { list: 'adapterStates', key: 'state' },
  { list: 'fallbacks', key: 'fallbackId' },
] as const;

/** Semantic rules of ToolPermissionBoundaryV1 (one per code), in page order. */
const TOOL_RULES: readonly SemanticRule[] = [
  toolRule(
    'TOOL_PERMISSION_DUPLICATE',
    'No two items of permissionOwners, dangerousOperations, adapterStates or fallbacks share their key (class, operationId, state, fallbackId); each later duplicate is reported.',
    (b) =>
      KEYED_LISTS.flatMap(({ list, key }) => {
        const items = b[list] as unknown as ReadonlyArray<Record<string, unknown>>;
        return laterDuplicates(items, (item) => String(item[key])).map((i) =>
          toolIssue(
            'TOOL_PERMISSION_DUPLICATE',
            `/${list}/${i}`,
            `/${list}/${i} repeats ${key} "${String(items[i]![key])}" of an earlier item; merge the two into one.`,
          ),
        );
      }),
  ),
  toolRule(
    'TOOL_PERMISSION_CLASS_MISSING',
    'permissionOwners has a record for every host-owned class: file-read, file-write, file-delete and command-execute; one issue per missing class.',
    (b) => {
      const present = new Set(b.permissionOwners.map((r) => r.permissionClass));
      return HOST_OWNED_PERMISSION_CLASSES.filter((c) => !present.has(c)).map((c) =>
        toolIssue(
          'TOOL_PERMISSION_CLASS_MISSING',
          '/permissionOwners',
          `permission class "${c}" has no record; add one that names the host holding it.`,
        ),
      );
    },
  ),
  toolRule(
    'TOOL_PERMISSION_OWNER_NOT_HOST',
    'The holder of file-read, file-write, file-delete and command-execute is the host (holder.kind host).',
    (b) => {
      const hostOwned = new Set(HOST_OWNED_PERMISSION_CLASSES);
      const out: Issue[] = [];
      b.permissionOwners.forEach((r, i) => {
        if (hostOwned.has(r.permissionClass) && r.holder.kind !== 'host')
          out.push(
            toolIssue(
              'TOOL_PERMISSION_OWNER_NOT_HOST',
              `/permissionOwners/${i}/holder/kind`,
              `permission class "${r.permissionClass}" is held by ${r.holder.kind} "${r.holder.name}"; only the host holds file, delete and command permissions; the runtime may only advise (runtimeRole).`,
            ),
          );
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_PERMISSION_DANGEROUS_OPERATION_UNLISTED',
    'dangerousOperations lists at least one operation of class file-delete and one of class command-execute.',
    (b) => {
      const listed = new Set(b.dangerousOperations.map((o) => o.permissionClass));
      return (['file-delete', 'command-execute'] as const)
        .filter((c) => !listed.has(c))
        .map((c) =>
          toolIssue(
            'TOOL_PERMISSION_DANGEROUS_OPERATION_UNLISTED',
            '/dangerousOperations',
            `no dangerous operation of class "${c}" is listed; list the operations that use it, each with its confirmation.`,
          ),
        );
    },
  ),
  toolRule(
    'TOOL_PERMISSION_CONFIRMATION_MISSING',
    'Every dangerous operation needs a confirmation (confirmation is not none).',
    (b) => {
      const out: Issue[] = [];
      b.dangerousOperations.forEach((o, i) => {
        if (o.confirmation === 'none')
          out.push(
            toolIssue(
              'TOOL_PERMISSION_CONFIRMATION_MISSING',
              `/dangerousOperations/${i}/confirmation`,
              `dangerous operation "${o.operationId}" needs no confirmation; require one (per-invocation or per-session), or remove it from the dangerous operations if it is not dangerous.`,
            ),
          );
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_PERMISSION_IRREVERSIBLE_WAIVABLE',
    'The confirmation of an irreversible operation is not waivable.',
    (b) => {
      const out: Issue[] = [];
      b.dangerousOperations.forEach((o, i) => {
        if (o.sideEffectLevel === 'irreversible' && o.waivable)
          out.push(
            toolIssue(
              'TOOL_PERMISSION_IRREVERSIBLE_WAIVABLE',
              `/dangerousOperations/${i}/waivable`,
              `irreversible operation "${o.operationId}" has a waivable confirmation; set waivable to false: nothing restores what it changes.`,
            ),
          );
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_PERMISSION_OPERATION_UNKNOWN',
    'Every operationId automatic mode waives names a listed dangerous operation.',
    (b) => {
      const known = new Set(b.dangerousOperations.map((o) => o.operationId));
      const out: Issue[] = [];
      b.automaticMode.waivedConfirmations.forEach((id, j) => {
        if (!known.has(id))
          out.push(
            toolIssue(
              'TOOL_PERMISSION_OPERATION_UNKNOWN',
              `/automaticMode/waivedConfirmations/${j}`,
              `automatic mode waives "${id}", which is not a listed dangerous operation; list the operation or remove the waiver.`,
            ),
          );
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_PERMISSION_AUTO_WAIVES_NON_WAIVABLE',
    'Automatic mode never waives a confirmation marked non-waivable (seed anti-pattern: automatic mode bypassing a dangerous-operation confirmation).',
    (b) => {
      const byId = new Map(b.dangerousOperations.map((o) => [o.operationId, o]));
      const out: Issue[] = [];
      b.automaticMode.waivedConfirmations.forEach((id, j) => {
        if (byId.get(id)?.waivable === false)
          out.push(
            toolIssue(
              'TOOL_PERMISSION_AUTO_WAIVES_NON_WAIVABLE',
              `/automaticMode/waivedConfirmations/${j}`,
              `automatic mode waives the confirmation of "${id}", which is not waivable; remove the waiver: automatic mode still asks for it.`,
            ),
          );
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_PERMISSION_ADAPTER_STATE_MISSING',
    'adapterStates declares a behaviour for each of missing, failed, invalid and outside-workspace; one issue per undeclared state.',
    (b) => {
      const declared = new Set(b.adapterStates.map((a) => a.state));
      return PERMISSION_ADAPTER_STATES.filter((s) => !declared.has(s)).map((s) =>
        toolIssue(
          'TOOL_PERMISSION_ADAPTER_STATE_MISSING',
          '/adapterStates',
          `no behaviour is declared for adapter state "${s}"; declare one (defer-to-host, report-unverified or use-fallback).`,
        ),
      );
    },
  ),
  toolRule(
    'TOOL_PERMISSION_SHADOW_DENY',
    'No adapter state creates a local shadow deny (behaviour local-shadow-deny).',
    (b) => {
      const out: Issue[] = [];
      b.adapterStates.forEach((a, i) => {
        if (a.behaviour === 'local-shadow-deny')
          out.push(
            toolIssue(
              'TOOL_PERMISSION_SHADOW_DENY',
              `/adapterStates/${i}/behaviour`,
              `adapter state "${a.state}" creates a local shadow deny; the host owns the permission: defer to it, report the boundary unverified, or take an explicit fallback.`,
            ),
          );
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_PERMISSION_FALLBACK_UNRESOLVED',
    'fallbackId is non-null exactly when behaviour is use-fallback, and then names a fallback of fallbacks.',
    (b) => {
      const known = new Set(b.fallbacks.map((f) => f.fallbackId));
      const out: Issue[] = [];
      b.adapterStates.forEach((a, i) => {
        const path = `/adapterStates/${i}/fallbackId`;
        if (a.behaviour !== 'use-fallback' && a.fallbackId !== null)
          out.push(
            toolIssue(
              'TOOL_PERMISSION_FALLBACK_UNRESOLVED',
              path,
              `adapter state "${a.state}" names fallback "${a.fallbackId}" but its behaviour is ${a.behaviour}; set behaviour use-fallback or fallbackId null.`,
            ),
          );
        else if (a.behaviour === 'use-fallback' && (a.fallbackId === null || !known.has(a.fallbackId)))
          out.push(
            toolIssue(
              'TOOL_PERMISSION_FALLBACK_UNRESOLVED',
              path,
              `adapter state "${a.state}" uses ${a.fallbackId === null ? 'no fallback' : `fallback "${a.fallbackId}", which is not listed`}; name a fallback of fallbacks (with its trigger and target).`,
            ),
          );
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_PERMISSION_FALLBACK_TRIGGER_MISMATCH',
    'The fallback an adapter state uses is triggered by that state (trigger adapter-<state>).',
    (b) => {
      const byId = new Map(b.fallbacks.map((f) => [f.fallbackId, f]));
      const out: Issue[] = [];
      b.adapterStates.forEach((a, i) => {
        if (a.behaviour !== 'use-fallback' || a.fallbackId === null) return;
        const f = byId.get(a.fallbackId);
        if (f !== undefined && f.trigger !== `adapter-${a.state}`)
          out.push(
            toolIssue(
              'TOOL_PERMISSION_FALLBACK_TRIGGER_MISMATCH',
              `/adapterStates/${i}/fallbackId`,
              `adapter state "${a.state}" uses fallback "${f.fallbackId}", whose trigger is ${f.trigger}; use a fallback with trigger adapter-${a.state}.`,
            ),
          );
      });
      return out;
    },
  ),
];

/** Semantic rules of HumanInLoopBoundaryV1 (one per code), in page order. */
const HUMAN_RULES: readonly SemanticRule[] = [
  humanRule(
    'HUMAN_LOOP_ACTION_CLASS_DUPLICATE',
    'No two action classes share their actionClass id; each later duplicate is reported.',
    (b) =>
      laterDuplicates(b.actionClasses, (c) => c.actionClass).map((i) =>
        humanIssue(
          'HUMAN_LOOP_ACTION_CLASS_DUPLICATE',
          `/actionClasses/${i}`,
          `/actionClasses/${i} repeats action class "${b.actionClasses[i]!.actionClass}"; merge the two records into one.`,
        ),
      ),
  ),
  humanRule('HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN', 'finalResponsibility is never model or agent.', (b) => {
    const out: Issue[] = [];
    b.actionClasses.forEach((c, i) => {
      if (c.finalResponsibility === 'model' || c.finalResponsibility === 'agent')
        out.push(
          humanIssue(
            'HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN',
            `/actionClasses/${i}/finalResponsibility`,
            `action class "${c.actionClass}" puts final responsibility on the ${c.finalResponsibility}; name the user, operator or organization that answers for it.`,
          ),
        );
    });
    return out;
  }),
  humanRule(
    'HUMAN_LOOP_IRREVERSIBLE_WITHOUT_REVIEW',
    'An irreversible action class has humanReview before-action.',
    (b) => {
      const out: Issue[] = [];
      b.actionClasses.forEach((c, i) => {
        if (c.reversibility === 'irreversible' && c.humanReview !== 'before-action')
          out.push(
            humanIssue(
              'HUMAN_LOOP_IRREVERSIBLE_WITHOUT_REVIEW',
              `/actionClasses/${i}/humanReview`,
              `irreversible action class "${c.actionClass}" has humanReview ${c.humanReview}; a review after the fact cannot undo it: require before-action review.`,
            ),
          );
      });
      return out;
    },
  ),
  humanRule(
    'HUMAN_LOOP_IRREVERSIBLE_AUTO_UNCONFIRMED',
    'Automatic mode never runs an irreversible action class without confirmation (automaticMode is not without-confirmation).',
    (b) => {
      const out: Issue[] = [];
      b.actionClasses.forEach((c, i) => {
        if (c.reversibility === 'irreversible' && c.automaticMode === 'without-confirmation')
          out.push(
            humanIssue(
              'HUMAN_LOOP_IRREVERSIBLE_AUTO_UNCONFIRMED',
              `/actionClasses/${i}/automaticMode`,
              `automatic mode runs irreversible action class "${c.actionClass}" without confirmation; set automaticMode to with-confirmation or not-allowed.`,
            ),
          );
      });
      return out;
    },
  ),
];

/** Semantic rules of this area's contracts, in page order. */
export const TOOL_PERMISSION_RULES: readonly SemanticRule[] = [...TOOL_RULES, ...HUMAN_RULES];

// --- tool-permission-boundary bundles ----------------------------------------------------------

type Pair = { tool: ToolPermissionBoundaryV1; human: HumanInLoopBoundaryV1 };

/** The confirmations a class's userConfirmation satisfies, weakest first (D-TPB-05). */
const SATISFIES: Readonly<Record<HumanLoopActionClass['userConfirmation'], ReadonlySet<string>>> = {
  'each-action': new Set(['per-invocation', 'per-session', 'none']),
  'once-per-session': new Set(['per-session', 'none']),
  'not-required': new Set(['none']),
};

function pairOf(documents: readonly ContractDocument[]): Pair | null {
  const [tool, human] = documents;
  if (documents.length !== 2 || tool?.schemaVersion !== TOOL || human?.schemaVersion !== HUMAN) return null;
  return {
    tool: tool as unknown as ToolPermissionBoundaryV1,
    human: human as unknown as HumanInLoopBoundaryV1,
  };
}

const SHAPE: Issue = issue(
  'BUNDLE_INVALID',
  '/documents',
  'a tool-permission-boundary bundle is exactly [ToolPermissionBoundaryV1, HumanInLoopBoundaryV1]: the tool boundary, then the human-in-the-loop boundary that names it.',
  'bundle',
);

function pairRule(code: string, description: string, check: (p: Pair) => Issue[]): BundleRule {
  return bundleRule(code, BUNDLE, BUNDLES, description, (documents) => {
    const p = pairOf(documents);
    // The shape is reported once, by the first rule of the kind.
    if (p === null) return code === 'HUMAN_LOOP_TOOL_BOUNDARY_MISMATCH' ? [SHAPE] : [];
    return check(p);
  });
}

const bundleIssue = (code: string, path: string, message: string) => issue(code, path, message, BUNDLES);

/** For each action class index, the covered operations the tool boundary lists. */
function coveredOperations(p: Pair, c: HumanLoopActionClass) {
  const byId = new Map(p.tool.dangerousOperations.map((o) => [o.operationId, o]));
  return c.operations.flatMap((id) => {
    const o = byId.get(id);
    return o === undefined ? [] : [o];
  });
}

/** Cross-document rules of this area's bundle kind `tool-permission-boundary`. */
export const TOOL_PERMISSION_BUNDLE_RULES: readonly BundleRule[] = [
  pairRule(
    'HUMAN_LOOP_TOOL_BOUNDARY_MISMATCH',
    'The human-in-the-loop boundary names the tool boundary of the bundle (toolPermissionBoundaryId equals its boundaryId) and is about the same subject.',
    ({ tool, human }) => {
      const out: Issue[] = [];
      if (human.toolPermissionBoundaryId !== tool.boundaryId)
        out.push(
          bundleIssue(
            'HUMAN_LOOP_TOOL_BOUNDARY_MISMATCH',
            '/documents/1/toolPermissionBoundaryId',
            `toolPermissionBoundaryId is ${human.toolPermissionBoundaryId} but the bundle's tool boundary is ${tool.boundaryId}; judge the human boundary with the tool boundary it names.`,
          ),
        );
      if (human.subject.system !== tool.subject.system || human.subject.revision !== tool.subject.revision)
        out.push(
          bundleIssue(
            'HUMAN_LOOP_TOOL_BOUNDARY_MISMATCH',
            '/documents/1/subject',
            `the human boundary is about ${human.subject.system}@${human.subject.revision}, the tool boundary about ${tool.subject.system}@${tool.subject.revision}; declare both for the same revision.`,
          ),
        );
      return out;
    },
  ),
  pairRule(
    'HUMAN_LOOP_OPERATION_UNKNOWN',
    'Every operation an action class names is a dangerous operation of the tool boundary.',
    ({ tool, human }) => {
      const known = new Set(tool.dangerousOperations.map((o) => o.operationId));
      const out: Issue[] = [];
      human.actionClasses.forEach((c, i) => {
        c.operations.forEach((id, j) => {
          if (!known.has(id))
            out.push(
              bundleIssue(
                'HUMAN_LOOP_OPERATION_UNKNOWN',
                `/documents/1/actionClasses/${i}/operations/${j}`,
                `action class "${c.actionClass}" names operation "${id}", which the tool boundary does not list; list it there or remove it here.`,
              ),
            );
        });
      });
      return out;
    },
  ),
  pairRule(
    'HUMAN_LOOP_OPERATION_UNCOVERED',
    'Every dangerous operation of the tool boundary is covered by at least one action class; one issue per uncovered operation.',
    ({ tool, human }) => {
      const covered = new Set(human.actionClasses.flatMap((c) => c.operations));
      const out: Issue[] = [];
      for (const o of tool.dangerousOperations)
        if (!covered.has(o.operationId))
          out.push(
            bundleIssue(
              'HUMAN_LOOP_OPERATION_UNCOVERED',
              '/documents/1/actionClasses',
              `dangerous operation "${o.operationId}" belongs to no action class; add it to the class whose confirmation, review and responsibility govern it.`,
            ),
          );
      return out;
    },
  ),
  pairRule(
    'HUMAN_LOOP_AUTO_WAIVES_NON_WAIVABLE',
    'An action class whose automatic mode proceeds without confirmation covers no operation whose confirmation the tool boundary marks non-waivable.',
    (p) => {
      const out: Issue[] = [];
      p.human.actionClasses.forEach((c, i) => {
        if (c.automaticMode !== 'without-confirmation') return;
        const locked = coveredOperations(p, c).filter((o) => !o.waivable && o.confirmation !== 'none');
        if (locked.length)
          out.push(
            bundleIssue(
              'HUMAN_LOOP_AUTO_WAIVES_NON_WAIVABLE',
              `/documents/1/actionClasses/${i}/automaticMode`,
              `automatic mode runs action class "${c.actionClass}" without confirmation, but the tool boundary marks the confirmation of ${locked.map((o) => `"${o.operationId}"`).join(', ')} non-waivable; set automaticMode to with-confirmation or not-allowed.`,
            ),
          );
      });
      return out;
    },
  ),
  pairRule(
    'HUMAN_LOOP_CONFIRMATION_WEAKER_THAN_TOOL',
    "An action class's userConfirmation is at least as strong as the confirmation of every operation it covers (each-action for per-invocation, once-per-session or each-action for per-session).",
    (p) => {
      const out: Issue[] = [];
      p.human.actionClasses.forEach((c, i) => {
        const weaker = coveredOperations(p, c).filter(
          (o) => !SATISFIES[c.userConfirmation].has(o.confirmation),
        );
        if (weaker.length)
          out.push(
            bundleIssue(
              'HUMAN_LOOP_CONFIRMATION_WEAKER_THAN_TOOL',
              `/documents/1/actionClasses/${i}/userConfirmation`,
              `action class "${c.actionClass}" asks ${c.userConfirmation}, weaker than the tool boundary's ${weaker.map((o) => `${o.confirmation} for "${o.operationId}"`).join(', ')}; ask at least as often as the tool boundary requires.`,
            ),
          );
      });
      return out;
    },
  ),
];
