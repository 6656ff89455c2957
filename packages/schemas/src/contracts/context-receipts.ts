import type { ContractEntry } from '../gates.js';

/** Catalogue entries of this area, in spec order. */
export const CONTEXT_RECEIPTS_CONTRACTS: readonly ContractEntry[] = [];
