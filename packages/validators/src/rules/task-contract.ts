// Semantic rules of TaskContractV1 and ToolContractV1 (docs/spec/task-contract-gate.md). Identity
// and digests are DigestRules with their own codes in @agent-contracts/schemas.
import type {
  CompletionCriterion,
  SideEffectLevel,
  TaskContractV1,
  ToolContractV1,
  ToolErrorClass,
  ToolErrorNextStep,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { embeddedSchemaExcess } from './embedded-schema-size.js';
import { bundleRule, contractRules, issue, laterDuplicates } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const PAGE = 'docs/spec/task-contract-gate.md';
const TASK_INVARIANTS = `${PAGE}#task-contract-invariants`;
const TOOL_INVARIANTS = `${PAGE}#tool-contract-invariants`;
const taskRule = contractRules<TaskContractV1>('TaskContractV1', TASK_INVARIANTS).rule;
const toolRule = contractRules<ToolContractV1>('ToolContractV1', TOOL_INVARIANTS).rule;

type CriterionMember =
  | 'command'
  | 'expectedExitCode'
  | 'path'
  | 'predicate'
  | 'digest'
  | 'pattern'
  | 'schema';

/** The members a criterion's kind (and predicate) needs set; every other member is empty or null. */
function membersNeeded(c: CompletionCriterion): readonly CriterionMember[] {
  switch (c.kind) {
    case 'command':
      return ['command', 'expectedExitCode'];
    case 'file-predicate':
      if (c.predicate === 'digest-equals') return ['path', 'predicate', 'digest'];
      if (c.predicate === 'matches') return ['path', 'predicate', 'pattern'];
      return ['path', 'predicate'];
    case 'json-schema':
      return ['path', 'schema'];
  }
}

const ALL_MEMBERS: readonly CriterionMember[] = [
  'command',
  'expectedExitCode',
  'path',
  'predicate',
  'digest',
  'pattern',
  'schema',
];

const isSet = (c: CompletionCriterion, m: CriterionMember): boolean =>
  m === 'command' ? c.command.length > 0 : c[m] !== null;

/** Whether `pattern` compiles as an ECMAScript regular expression (with the `u` flag). */
function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Semantic rules of TaskContractV1 (one per code), in the page's order. */
export const TASK_CONTRACT_RULES: readonly SemanticRule[] = [
  taskRule(
    'TASK_CONTRACT_CRITERION_DUPLICATE',
    'No two completion criteria have the same name (invariant 3).',
    (t) =>
      laterDuplicates(t.completionCriteria, (c) => c.name).map((i) =>
        issue(
          'TASK_CONTRACT_CRITERION_DUPLICATE',
          `/completionCriteria/${i}/name`,
          `criterion name "${t.completionCriteria[i]!.name}" is used by an earlier criterion; give each check its own name.`,
          TASK_INVARIANTS,
        ),
      ),
  ),
  taskRule(
    'TASK_CONTRACT_CRITERION_NOT_CHECKABLE',
    'Every completion criterion sets the members its kind needs: a command and its exit code, a path and a predicate (with its digest or pattern), or a path and a schema (invariant 4).',
    (t) => {
      const out: Issue[] = [];
      t.completionCriteria.forEach((c, i) => {
        for (const m of membersNeeded(c)) {
          if (!isSet(c, m)) {
            out.push(
              issue(
                'TASK_CONTRACT_CRITERION_NOT_CHECKABLE',
                `/completionCriteria/${i}/${m}`,
                `criterion "${c.name}" of kind ${c.kind}${c.predicate ? ` (${c.predicate})` : ''} has no ${m}, so no machine can run it; set ${m}.`,
                TASK_INVARIANTS,
              ),
            );
          }
        }
      });
      return out;
    },
  ),
  taskRule(
    'TASK_CONTRACT_CRITERION_MEMBER_STRAY',
    'A completion criterion leaves empty (or null) every member its kind does not use, so that a reader knows which check runs (invariant 5).',
    (t) => {
      const out: Issue[] = [];
      t.completionCriteria.forEach((c, i) => {
        const needed = new Set(membersNeeded(c));
        for (const m of ALL_MEMBERS) {
          if (!needed.has(m) && isSet(c, m)) {
            out.push(
              issue(
                'TASK_CONTRACT_CRITERION_MEMBER_STRAY',
                `/completionCriteria/${i}/${m}`,
                `criterion "${c.name}" of kind ${c.kind} sets ${m}, which that kind does not use; clear it, or split the criterion into one check per kind.`,
                TASK_INVARIANTS,
              ),
            );
          }
        }
      });
      return out;
    },
  ),
  taskRule(
    'TASK_CONTRACT_CRITERION_PATTERN_INVALID',
    'The pattern of a matches criterion compiles as an ECMAScript regular expression with the u flag (invariant 6).',
    (t) => {
      const out: Issue[] = [];
      t.completionCriteria.forEach((c, i) => {
        if (c.pattern !== null && !compiles(c.pattern)) {
          out.push(
            issue(
              'TASK_CONTRACT_CRITERION_PATTERN_INVALID',
              `/completionCriteria/${i}/pattern`,
              `criterion "${c.name}" has a pattern that is not a valid regular expression; fix its syntax.`,
              TASK_INVARIANTS,
            ),
          );
        }
      });
      return out;
    },
  ),
  taskRule(
    'TASK_CONTRACT_SCHEMA_TOO_LARGE',
    'The schema of a json-schema criterion is within the embedded-schema limits (invariant 7).',
    (t) => {
      const out: Issue[] = [];
      t.completionCriteria.forEach((c, i) => {
        const excess = c.schema === null ? null : embeddedSchemaExcess(c.schema);
        if (excess !== null) {
          out.push(
            issue(
              'TASK_CONTRACT_SCHEMA_TOO_LARGE',
              `/completionCriteria/${i}/schema`,
              `the schema of criterion "${c.name}" is over the limits (${excess}); move definitions out or simplify it.`,
              TASK_INVARIANTS,
            ),
          );
        }
      });
      return out;
    },
  ),
  taskRule(
    'TASK_CONTRACT_TOOL_DUPLICATE',
    'No two tools of the constraints have the same toolName (invariant 8).',
    (t) =>
      laterDuplicates(t.constraints.tools, (x) => x.toolName).map((i) =>
        issue(
          'TASK_CONTRACT_TOOL_DUPLICATE',
          `/constraints/tools/${i}/toolName`,
          `tool "${t.constraints.tools[i]!.toolName}" is listed twice; keep one entry per tool.`,
          TASK_INVARIANTS,
        ),
      ),
  ),
  taskRule(
    'TASK_CONTRACT_TOOL_SIDE_EFFECT_NOT_ALLOWED',
    "Every tool's sideEffectLevel is one of the task's allowedSideEffects (invariant 9).",
    (t) => {
      const allowed = new Set<SideEffectLevel>(t.constraints.allowedSideEffects);
      const out: Issue[] = [];
      t.constraints.tools.forEach((x, i) => {
        if (!allowed.has(x.sideEffectLevel)) {
          out.push(
            issue(
              'TASK_CONTRACT_TOOL_SIDE_EFFECT_NOT_ALLOWED',
              `/constraints/tools/${i}/sideEffectLevel`,
              `tool "${x.toolName}" has side-effect level ${x.sideEffectLevel}, which the task does not allow (${[...allowed].join(', ')}); remove the tool, or allow the level explicitly.`,
              TASK_INVARIANTS,
            ),
          );
        }
      });
      return out;
    },
  ),
  taskRule(
    'TASK_CONTRACT_BUDGET_NO_TOOL_CALLS',
    'A task that lists tools has a budget of at least one tool call (invariant 10).',
    (t) =>
      t.constraints.tools.length > 0 && t.constraints.budget.maxToolCalls === 0
        ? [
            issue(
              'TASK_CONTRACT_BUDGET_NO_TOOL_CALLS',
              '/constraints/budget/maxToolCalls',
              `the task lists ${t.constraints.tools.length} tool(s) but its budget allows no tool call; raise maxToolCalls, or list no tools.`,
              TASK_INVARIANTS,
            ),
          ]
        : [],
  ),
];

const WRITES_OUTSIDE: ReadonlySet<SideEffectLevel> = new Set(['external-write', 'irreversible']);

/** The next steps each error class allows (the page's next-step table). */
export const TOOL_NEXT_STEPS: Readonly<Record<ToolErrorClass, readonly ToolErrorNextStep[]>> = {
  'business-rejection': ['fix-input', 'replan', 'hand-over', 'fail'],
  transient: ['retry-with-backoff', 'replan', 'hand-over', 'fail'],
  permanent: ['fix-input', 'replan', 'hand-over', 'fail'],
  'unknown-outcome': ['query-then-retry', 'compensate', 'hand-over'],
};

/** Semantic rules of ToolContractV1 (one per code), in the page's order. */
export const TOOL_CONTRACT_RULES: readonly SemanticRule[] = [
  toolRule(
    'TOOL_CONTRACT_SCHEMA_TOO_LARGE',
    'inputSchema and outputSchema are within the embedded-schema limits (invariant 3).',
    (t) => {
      const out: Issue[] = [];
      for (const member of ['inputSchema', 'outputSchema'] as const) {
        const excess = embeddedSchemaExcess(t[member]);
        if (excess !== null) {
          out.push(
            issue(
              'TOOL_CONTRACT_SCHEMA_TOO_LARGE',
              `/${member}`,
              `${member} is over the limits (${excess}); simplify it.`,
              TOOL_INVARIANTS,
            ),
          );
        }
      }
      return out;
    },
  ),
  toolRule('TOOL_CONTRACT_ERROR_DUPLICATE', 'No two errors have the same errorCode (invariant 4).', (t) =>
    laterDuplicates(t.errors, (e) => e.errorCode).map((i) =>
      issue(
        'TOOL_CONTRACT_ERROR_DUPLICATE',
        `/errors/${i}/errorCode`,
        `error code "${t.errors[i]!.errorCode}" is declared twice; keep one entry per code.`,
        TOOL_INVARIANTS,
      ),
    ),
  ),
  toolRule(
    'TOOL_CONTRACT_UNKNOWN_OUTCOME_BLIND_RETRY',
    'An unknown-outcome error never has nextStep retry-with-backoff: the effect may have happened, so the caller queries before it retries (invariant 5).',
    (t) => {
      const out: Issue[] = [];
      t.errors.forEach((e, i) => {
        if (e.errorClass === 'unknown-outcome' && e.nextStep === 'retry-with-backoff') {
          out.push(
            issue(
              'TOOL_CONTRACT_UNKNOWN_OUTCOME_BLIND_RETRY',
              `/errors/${i}/nextStep`,
              `error "${e.errorCode}" has an unknown outcome but its next step retries blindly, which can repeat the effect; use query-then-retry (or compensate, or hand-over).`,
              TOOL_INVARIANTS,
            ),
          );
        }
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_CONTRACT_NEXT_STEP_NOT_ALLOWED',
    "Every error's nextStep is one its errorClass allows in the next-step table (invariant 6); an unknown-outcome error with retry-with-backoff is reported by invariant 5 instead.",
    (t) => {
      const out: Issue[] = [];
      t.errors.forEach((e, i) => {
        if (e.errorClass === 'unknown-outcome' && e.nextStep === 'retry-with-backoff') return;
        const allowed = TOOL_NEXT_STEPS[e.errorClass];
        if (!allowed.includes(e.nextStep)) {
          out.push(
            issue(
              'TOOL_CONTRACT_NEXT_STEP_NOT_ALLOWED',
              `/errors/${i}/nextStep`,
              `error "${e.errorCode}" is ${e.errorClass}, for which ${e.nextStep} is not a next step; use one of ${allowed.join(', ')}.`,
              TOOL_INVARIANTS,
            ),
          );
        }
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_CONTRACT_NEXT_STEP_ROUTE_MISSING',
    'An error whose nextStep is query-then-retry names a queryTool, and one whose nextStep is compensate names a compensationTool, in effectRoutes (invariant 7).',
    (t) => {
      const out: Issue[] = [];
      t.errors.forEach((e, i) => {
        const missing =
          e.nextStep === 'query-then-retry' && t.effectRoutes.queryTool === null
            ? 'queryTool'
            : e.nextStep === 'compensate' && t.effectRoutes.compensationTool === null
              ? 'compensationTool'
              : null;
        if (missing !== null) {
          out.push(
            issue(
              'TOOL_CONTRACT_NEXT_STEP_ROUTE_MISSING',
              `/errors/${i}/nextStep`,
              `error "${e.errorCode}" says ${e.nextStep} but effectRoutes.${missing} is null; name the tool that does it, or choose another next step.`,
              TOOL_INVARIANTS,
            ),
          );
        }
      });
      return out;
    },
  ),
  toolRule(
    'TOOL_CONTRACT_EFFECT_ROUTE_MISSING',
    'An external-write or irreversible tool names a queryTool or a compensationTool (invariant 8).',
    (t) =>
      WRITES_OUTSIDE.has(t.sideEffectLevel) &&
      t.effectRoutes.queryTool === null &&
      t.effectRoutes.compensationTool === null
        ? [
            issue(
              'TOOL_CONTRACT_EFFECT_ROUTE_MISSING',
              '/effectRoutes',
              `tool "${t.toolName}" is ${t.sideEffectLevel} but names no way to learn whether its effect happened or to undo it; name a queryTool or a compensationTool.`,
              TOOL_INVARIANTS,
            ),
          ]
        : [],
  ),
  toolRule(
    'TOOL_CONTRACT_UNKNOWN_OUTCOME_UNDECLARED',
    'An external-write or irreversible tool declares at least one unknown-outcome error (a remote write that timed out) (invariant 9).',
    (t) =>
      WRITES_OUTSIDE.has(t.sideEffectLevel) && !t.errors.some((e) => e.errorClass === 'unknown-outcome')
        ? [
            issue(
              'TOOL_CONTRACT_UNKNOWN_OUTCOME_UNDECLARED',
              '/errors',
              `tool "${t.toolName}" is ${t.sideEffectLevel} but declares no unknown-outcome error; declare the timeout (or lost reply) of a write as unknown-outcome with next step query-then-retry.`,
              TOOL_INVARIANTS,
            ),
          ]
        : [],
  ),
  toolRule(
    'TOOL_CONTRACT_RETRY_NOT_IDEMPOTENT',
    'An external-write or irreversible tool that is retryable has idempotency kind key (invariant 10).',
    (t) =>
      WRITES_OUTSIDE.has(t.sideEffectLevel) && t.retry.retryable && t.idempotency.kind === 'none'
        ? [
            issue(
              'TOOL_CONTRACT_RETRY_NOT_IDEMPOTENT',
              '/retry/retryable',
              `tool "${t.toolName}" is ${t.sideEffectLevel} and retryable without an idempotency key, so a retry can repeat its effect; add an idempotency key field, or make it not retryable.`,
              TOOL_INVARIANTS,
            ),
          ]
        : [],
  ),
  toolRule(
    'TOOL_CONTRACT_IDEMPOTENCY_KEY_INVALID',
    'idempotency.keyField is null with kind none, and with kind key names a property that inputSchema requires (invariant 11).',
    (t) => {
      const { kind, keyField } = t.idempotency;
      const required = Array.isArray(t.inputSchema.required) ? (t.inputSchema.required as unknown[]) : [];
      const props = t.inputSchema.properties;
      const declared =
        keyField !== null &&
        props !== null &&
        typeof props === 'object' &&
        Object.hasOwn(props as object, keyField) &&
        required.includes(keyField);
      const problem =
        kind === 'none'
          ? keyField !== null
            ? `kind is none but keyField is "${keyField}"; set keyField to null, or kind to key`
            : null
          : keyField === null
            ? 'kind is key but keyField is null; name the input property that carries the key'
            : declared
              ? null
              : `keyField "${keyField}" is not a required property of inputSchema; declare it there (in properties and required)`;
      return problem === null
        ? []
        : [
            issue(
              'TOOL_CONTRACT_IDEMPOTENCY_KEY_INVALID',
              '/idempotency/keyField',
              `${problem}.`,
              TOOL_INVARIANTS,
            ),
          ];
    },
  ),
  toolRule(
    'TOOL_CONTRACT_RETRY_ATTEMPTS_INCONSISTENT',
    'retry.maxAttempts is 1 when retryable is false and more than 1 when it is true (invariant 12).',
    (t) =>
      t.retry.retryable === t.retry.maxAttempts > 1
        ? []
        : [
            issue(
              'TOOL_CONTRACT_RETRY_ATTEMPTS_INCONSISTENT',
              '/retry/maxAttempts',
              t.retry.retryable
                ? 'the tool is retryable but allows only 1 attempt; raise maxAttempts, or set retryable to false.'
                : `the tool is not retryable but allows ${t.retry.maxAttempts} attempts; set maxAttempts to 1, or retryable to true.`,
              TOOL_INVARIANTS,
            ),
          ],
  ),
  toolRule(
    'TOOL_CONTRACT_CONFIRMATION_MISSING',
    'An irreversible tool requires confirmation (invariant 13).',
    (t) =>
      t.sideEffectLevel === 'irreversible' && !t.requiresConfirmation
        ? [
            issue(
              'TOOL_CONTRACT_CONFIRMATION_MISSING',
              '/requiresConfirmation',
              `tool "${t.toolName}" is irreversible but runs without confirmation; set requiresConfirmation to true.`,
              TOOL_INVARIANTS,
            ),
          ]
        : [],
  ),
  toolRule(
    'TOOL_CONTRACT_NETWORK_EGRESS_UNDECLARED',
    'A tool whose permission scope reaches a network-host or a service declares networkEgress true (invariant 14).',
    (t) => {
      const reaches = t.permissionScope.resources.findIndex(
        (r) => r.kind === 'network-host' || r.kind === 'service',
      );
      return reaches >= 0 && !t.networkEgress
        ? [
            issue(
              'TOOL_CONTRACT_NETWORK_EGRESS_UNDECLARED',
              '/networkEgress',
              `the tool reaches ${t.permissionScope.resources[reaches]!.locator} but declares networkEgress false, which a policy engine relies on; set networkEgress to true.`,
              TOOL_INVARIANTS,
            ),
          ]
        : [];
    },
  ),
];

const TASK_WITH_TOOLS = 'task-contract-with-tools';
const BUNDLES = `${PAGE}#bundles`;

/** Where a `task-contract-with-tools` bundle breaks its shape: first a TaskContractV1, then only ToolContractV1s. */
function shapeIssues(documents: readonly ContractDocument[]): Issue[] {
  return documents.flatMap((d, i) => {
    const want = i === 0 ? 'TaskContractV1' : 'ToolContractV1';
    return d.schemaVersion === want
      ? []
      : [
          issue(
            'TASK_CONTRACT_BUNDLE_SHAPE_INVALID',
            `/documents/${i}/schemaVersion`,
            `document ${i} is a ${d.schemaVersion}, where the bundle needs a ${want} (the task first, then its tools' contracts).`,
            BUNDLES,
          ),
        ];
  });
}

/** Each tool reference of the task, with the bundle's tool contract of that digest (or `undefined`). */
function resolveTools(documents: readonly ContractDocument[]) {
  const task = documents[0] as unknown as TaskContractV1;
  const tools = documents.slice(1) as unknown as ToolContractV1[];
  return task.constraints.tools.map((ref, i) => ({
    ref,
    i,
    contract: tools.find((t) => t.contractDigest === ref.toolContractDigest),
  }));
}

function withToolsRule(
  code: string,
  description: string,
  check: (docs: readonly ContractDocument[]) => Issue[],
): BundleRule {
  return bundleRule(code, TASK_WITH_TOOLS, BUNDLES, description, (documents) =>
    code === 'TASK_CONTRACT_BUNDLE_SHAPE_INVALID'
      ? check(documents)
      : shapeIssues(documents).length
        ? []
        : check(documents),
  );
}

/** Cross-document rules: a task judged with the contracts of the tools it lists. */
export const TASK_CONTRACT_BUNDLE_RULES: readonly BundleRule[] = [
  withToolsRule(
    'TASK_CONTRACT_BUNDLE_SHAPE_INVALID',
    'A task-contract-with-tools bundle is one TaskContractV1 followed by ToolContractV1 documents only (bundle rule 1).',
    shapeIssues,
  ),
  withToolsRule(
    'TASK_CONTRACT_TOOL_CONTRACT_MISSING',
    "Every tool the task lists has a ToolContractV1 in the bundle whose contractDigest is the reference's toolContractDigest (bundle rule 2).",
    (documents) =>
      resolveTools(documents)
        .filter((x) => x.contract === undefined)
        .map((x) =>
          issue(
            'TASK_CONTRACT_TOOL_CONTRACT_MISSING',
            `/documents/0/constraints/tools/${x.i}/toolContractDigest`,
            `no tool contract of the bundle has contractDigest ${x.ref.toolContractDigest} (tool "${x.ref.toolName}"); add that contract, or update the reference to the contract you mean.`,
            BUNDLES,
          ),
        ),
  ),
  withToolsRule(
    'TASK_CONTRACT_TOOL_FACTS_MISMATCH',
    'A tool reference states the toolName and sideEffectLevel of the tool contract it names by digest (bundle rule 3).',
    (documents) =>
      resolveTools(documents).flatMap(({ ref, i, contract }) => {
        if (contract === undefined) return [];
        return (['toolName', 'sideEffectLevel'] as const)
          .filter((m) => ref[m] !== contract[m])
          .map((m) =>
            issue(
              'TASK_CONTRACT_TOOL_FACTS_MISMATCH',
              `/documents/0/constraints/tools/${i}/${m}`,
              `the task says ${m} "${ref[m]}" but the tool contract it names says "${contract[m]}"; copy the tool contract's value (and recheck allowedSideEffects).`,
              BUNDLES,
            ),
          );
      }),
  ),
];
