// @module-tag unit
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { CONTRACTS, GATES, getSchema, getSchemaById, SCHEMA_NAMES, schemaIdFor } from '../src/index.ts';
import { repoRoot } from './helpers.ts';

// ajv-formats is CommonJS with a default export; under NodeNext the callable is `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const index = JSON.parse(readFileSync(join(repoRoot, 'schemas/index.json'), 'utf8')) as {
  schemas: Array<{ name: string; $id: string; file: string; gate: string }>;
};

describe('published schemas', () => {
  it('cover exactly the contract catalogue, in order', () => {
    expect(SCHEMA_NAMES).toEqual(CONTRACTS.map((c) => c.name));
    expect(index.schemas.map((s) => s.name)).toEqual(CONTRACTS.map((c) => c.name));
  });

  it('name a gate that has a spec page', () => {
    for (const c of CONTRACTS) expect(Object.keys(GATES)).toContain(c.gate);
  });

  for (const contract of CONTRACTS) {
    describe(contract.name, () => {
      const schema = getSchema(contract.name)!;
      const file = JSON.parse(
        readFileSync(join(repoRoot, `schemas/contracts/${contract.name}.schema.json`), 'utf8'),
      );

      it('the committed file is what the package embeds, and resolves by $id offline', () => {
        expect(file).toEqual(schema);
        expect(schema.$id).toBe(schemaIdFor(contract.name));
        expect(getSchemaById(schemaIdFor(contract.name))).toBe(schema);
      });

      it('compiles in ajv strict mode and is valid against the draft-07 meta-schema', () => {
        const ajv = new Ajv({ strict: true, allErrors: true });
        addFormats(ajv);
        expect(ajv.validateSchema(schema as object)).toBe(true);
        expect(() => ajv.compile(schema as object)).not.toThrow();
      });

      it('loads in @cfworker/json-schema (draft-07)', () => {
        const v = new Validator(schema as object, '7', false);
        // An empty object is never a valid contract document: schemaVersion is required.
        expect(v.validate({}).valid).toBe(false);
      });
    });
  }
});
