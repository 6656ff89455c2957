import type { ContractEntry } from '../gates.js';

/** Catalogue entries of this area, in spec order. */
export const CAPABILITY_DOMAIN_CONTRACTS: readonly ContractEntry[] = [];
