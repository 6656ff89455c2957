import type { ContractEntry } from '../gates.js';

/** Catalogue entries of this area, in spec order. */
export const ARCHITECTURE_REPORT_CONTRACTS: readonly ContractEntry[] = [];
