/**
 * Whether this build carries the API's documentation: the summaries and descriptions of routes, wire
 * schemas and their fields, which only the OpenAPI document reads. Every such text is written
 * `DOCS ? "…" : ""`. The dashboard's build (scripts/buildDashboard.ts) swaps this module for one where
 * `DOCS` is `false`, and minification folds each of those to `""`, so no browser downloads them. A
 * constant that only such texts use is written the same way: esbuild keeps a module's constant even when
 * the only use of it was folded away.
 */
export const DOCS: boolean = true
