/** Types of stryker/sample-lib.mjs for the tests that import it. */
export interface Location { line: number; column: number }
export interface StrykerMutant { id: string; fileName: string; mutatorName: string; replacement: string; location: { start: Location; end: Location }; status?: string }
export interface ExplicitMutant { file: string; line: number; from: string; to: string }
export interface Options { files: string[]; since: string | null; mutants: ExplicitMutant[]; ids: Array<{ file: string; id: string }>; n: number; seed: number | null; timeoutS: number; dryRun: boolean; e2e: boolean; help: boolean }
export interface Area { prefix: string; tests: string[]; e2e?: string[] }
export function parseArgs(argv: string[]): Options;
export function parseMutant(spec: string): ExplicitMutant;
export function parseId(spec: string): { file: string; id: string };
export function rng(seed: number): () => number;
export function draw<T>(items: readonly T[], n: number, seed: number): T[];
export function changedLines(diff: string): Map<string, Set<number>>;
export function isMutable(file: string): boolean;
export function onChangedLine(mutant: StrykerMutant, lines: Set<number> | undefined): boolean;
export function applyMutant(text: string, mutant: StrykerMutant): { original: string; text: string };
export function applyExplicit(text: string, mutant: ExplicitMutant): { original: string; text: string };
export function reproduce(text: string, mutant: StrykerMutant, original: string): string;
export function shellQuote(s: string): string;
export function areaOf(file: string, areas?: Area[]): Area;
export function buildsFor(file: string, withE2e: boolean): string[];
export const USAGE: string;
