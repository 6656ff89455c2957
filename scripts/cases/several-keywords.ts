// Validation cases whose document fails several schema keywords at once. Each step validates the
// same document and expects one of the failures, so a validator that stops at the first failing
// keyword fails the case (GEN-008). The reference validator must report every expected issue, or
// generation stops.
import type { Case } from '@agent-contracts/harness';
import { validate } from '@agent-contracts/validators';

interface SeveralKeywords {
  readonly contract: string;
  readonly name: string;
  readonly title: string;
  /** A valid fixture of the contract, edited by `edit`. */
  readonly fixture: string;
  readonly edit: (doc: Record<string, unknown>) => void;
  /** Every issue the edited document must be reported with, one step each. */
  readonly issues: ReadonlyArray<{ readonly code: string; readonly path: string }>;
}

const CASES: readonly SeveralKeywords[] = [
  {
    contract: 'IntentSeedV1',
    name: 'three-failing-keywords',
    title:
      'a seed that fails maximum, type and additionalProperties is reported with all three issues, not only the first',
    fixture: 'audit-high-risk.json',
    edit: (doc) => {
      doc.confidence = 1.5;
      doc.continuationHint = 'no';
      doc.intent = 'audit';
    },
    issues: [
      { code: 'SCHEMA_MAXIMUM', path: '/confidence' },
      { code: 'SCHEMA_TYPE', path: '/continuationHint' },
      { code: 'SCHEMA_ADDITIONAL_PROPERTY', path: '' },
    ],
  },
];

/** The several-keywords cases of `contract`, as steps and an id; `load` reads a valid fixture. */
export function severalKeywordsCases(
  contract: string,
  load: (fixture: string) => Record<string, unknown>,
): Array<Pick<Case, 'id' | 'title' | 'steps'>> {
  return CASES.filter((c) => c.contract === contract).map((c) => {
    const document = load(c.fixture);
    c.edit(document);
    const reported = validate(document, { contract: c.contract });
    for (const want of c.issues)
      if (reported.ok || !reported.issues.some((i) => i.code === want.code && i.path === want.path))
        throw new Error(
          `several-keywords/${c.name}: the reference validator does not report ${want.code} at "${want.path}"`,
        );
    return {
      id: `validate/${contract}/several-keywords/${c.name}`,
      title: c.title,
      steps: c.issues.map((issue) => ({
        method: 'validate',
        params: { contract, document },
        expect: { issue },
      })),
    };
  });
}
