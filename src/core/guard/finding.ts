/** What a rule reports, the state rules share, and the advice texts refusals carry. */
import type { GuardContext } from './types.js';
import type { Zones } from './paths.js';

/** A rule's objection: `why` completes "it would …". */
export interface Finding {
  why: string;
  advice: string;
  /** The text was not valid shell (fail closed for commands; ignored for strings found in interpreter code). */
  parseError?: boolean;
}

/** Everything a rule may consult while one command is analysed. */
export interface Env {
  role: 'lead' | 'teammate';
  ctx: GuardContext;
  zones: Zones;
  /** Directories the command may run in: the start cwd plus every literal `cd` target in the input. */
  cwds: string[];
  /** A `cd` to a dynamic path was seen: relative paths may point anywhere. */
  unknownCwd: boolean;
  /** The cwds became unknown because more than 16 were possible (not through a cd to a run-time place). */
  cwdOverflow?: boolean;
  /** The input assigns HOME: a bare `cd`, `cd ~…` and `~` paths go where it says, not to the agent's home. */
  homeSet?: boolean;
  /** The full original input (the dynamic-command rule looks at all of it). */
  fullText: string;
  depth: number;
  /** The input fetches (git fetch/pull): refs may move before a later command runs. */
  fetchFirst?: boolean;
}

export const ADVICE = {
  lead:
    'You are the team lead, a coordinator: inspect with git status/log/diff/show, delegate the change to the responsible teammate with SendMessage, and integrate finished branches with TeamMerge.',
  leadWrite:
    'The lead does not author files: ask the responsible teammate via SendMessage. Scratch output may go to /tmp; to resolve a merge conflict, run TeamMerge and edit only the files git lists as unmerged.',
  leadMerge:
    'Resolve the conflict instead: edit the unmerged files (git diff --name-only --diff-filter=U) and commit, or ask the teammate that owns the branch to rebase it and re-run TeamMerge.',
  dynamic:
    'Run a plain literal command (no $VAR, $(…), backticks, brace lists or eval) so it can be checked, or hand the destructive step to the responsible teammate.',
  teammateReset:
    "Use `git reset --hard HEAD~N` or `git reset --hard <sha>` to undo your own commits, or ask the lead to handle the merge. To take a file from another branch use `git checkout <branch> -- <path>`.",
  teammateSwitch:
    'Stay on your own branch: your worktree belongs to it. To look at another branch use `git show <branch>:<path>` or `git diff <branch>`; to take a file use `git checkout <branch> -- <path>`.',
  teammateOthers:
    "Another teammate owns that. Send them (or the lead) a message with SendMessage instead of changing their branch or worktree.",
  parse: 'Fix the shell syntax, or split the command into simpler literal commands.',
} as const;
