/** One section of `npm run bench`: printed as a table, written to bench/results/<file>.json. */
export interface BenchSection {
  /** Title printed above the table. */
  title: string;
  /** File name under bench/results/ (without .json). */
  file: string;
  rows: Array<Record<string, string | number>>;
  /** Raw figures kept in the JSON. */
  details?: unknown;
}
