import type { ContractEntry } from '../gates.js';

/** Catalogue entries of this area, in spec order. */
export const TURN_LIVENESS_CONTRACTS: readonly ContractEntry[] = [];
