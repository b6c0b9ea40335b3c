/** The dynamic-command rule: input whose words are only known at run time is refused when it carries a destructive verb. */
import { ADVICE, type Finding } from './finding.js';

/**
 * Destructive verbs and flags anywhere in the (folded, lower-cased) input. `$`, braces and backticks
 * count as word boundaries: `rm${IFS}-rf${IFS}src` splits into `rm -rf src` at run time.
 */
const MARKERS = new RegExp(
  [
    String.raw`(^|[^\w.-])(rm|rmdir|unlink|shred|srm|truncate|dd|mkfs\S*|wipefs|wipe|rimraf)(?=$|[\s"';|&)$\x60{}])`,
    String.raw`--hard|--force|--delete|--mirror|--no-preserve-root|--in-place`,
    String.raw`(^|[\s"'}\x60])-[a-z]*[rf][a-z]*(?=$|[\s"';|&)$\x60{}])`,
    String.raw`\b(reset|clean|checkout|restore|switch|rebase|worktree|push|update-ref|filter-branch|filter-repo)\b`,
    String.raw`rmtree|rmsync|rimraf|unlinksync|writefile|remove_tree|\btee\b|\bsed\b|\bmv\b|\bcp\b|>`,
  ].join('|'),
);

export function hasDestructiveMarker(text: string): boolean {
  return MARKERS.test(text.toLowerCase());
}

export function dynamicRule(what: string, fullText: string): Finding | null {
  if (!hasDestructiveMarker(fullText)) return null;
  return {
    why: `run ${what}, built at run time, in a command that carries a destructive verb — it cannot be verified`,
    advice: ADVICE.dynamic,
  };
}
