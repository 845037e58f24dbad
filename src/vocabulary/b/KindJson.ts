/** Kinds in vocabulary B (docs/reference.md §3) are written as the simulator's home file writes them. */
export { BareKindJson as KindJson } from "../common/KindNameJson.ts"
