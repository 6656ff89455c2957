import { Validator } from '@cfworker/json-schema';
import { getSchema } from '../src/index.ts';

export {
  ajvFor,
  type FixtureFile,
  judge,
  listFixtures,
  repoRoot,
} from '../../../scripts/lib/fixture-corpus.ts';

/** The second, independent validator: @cfworker/json-schema, draft-07. */
export function cfworkerFor(contract: string): Validator {
  const schema = getSchema(contract);
  if (!schema) throw new Error(`no schema for ${contract}`);
  return new Validator(schema as object, '7', false);
}
