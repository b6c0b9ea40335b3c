/**
 * An approval card in words: what the tool would do, said as a sentence ("Create team **shop**: alice (API,
 * own worktree)"), instead of its JSON. The raw input stays under the card's "details".
 */
import type { ApprovalView } from '../contract/api';
import { LEAD } from '../contract/limits';

/** A sentence as runs of text; `strong` runs are the names the eye looks for. */
export type Words = Array<{ text: string; strong?: boolean }>;

type Input = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** At most `n` characters, cut with an ellipsis: a card is read at a glance, the details hold the rest. */
function clip(s: string, n = 200): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

function member(m: Input): string {
  const role = str(m.role);
  const model = str(m.model);
  const where = m.isolation === 'worktree' ? 'own worktree' : 'project folder';
  return `${str(m.name) ?? '?'} (${[role, model, where].filter(Boolean).join(', ')})`;
}

function teamCreate(i: Input): Words {
  const agents = Array.isArray(i.agents) ? (i.agents as Input[]).filter((a) => a && typeof a === 'object') : [];
  return [
    { text: i.replace === true ? 'Replace the team with team ' : 'Create team ' },
    { text: str(i.name) ?? '?', strong: true },
    { text: agents.length ? `: ${agents.map(member).join(', ')}` : ' (no members yet)' },
  ];
}

function spawnTeammate(i: Input): Words {
  const prompt = str(i.prompt);
  const extras = [str(i.model) && `on ${str(i.model)}`, i.plan_mode_required === true && 'plan first', str(i.cwd) && `in ${str(i.cwd)}`].filter(Boolean);
  return [
    { text: 'Start ' },
    { text: str(i.name) ?? '?', strong: true },
    { text: `${extras.length ? ` (${extras.join(', ')})` : ''}${prompt ? ` with: '${clip(prompt)}'` : ''}` },
  ];
}

function teamMerge(i: Input): Words {
  const only = Array.isArray(i.only) ? (i.only as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  const what = only.length ? `${only.join(', ')}'s branches` : "every teammate's branch";
  const into = str(i.into) ?? 'the current branch';
  if (i.abort === true) return [{ text: 'Back out of the merge left in progress' }];
  return [{ text: i.dry_run === true ? `Dry-run a merge of ${what} into ` : `Merge ${what} into ` }, { text: into, strong: true }, { text: i.cleanup === true ? ', then remove merged worktrees' : '' }];
}

/** Any other tool's input as "key: value" pairs, short values only. */
function pairs(i: Input): string {
  return Object.entries(i)
    .map(([k, v]) => `${k}: ${clip(typeof v === 'string' ? v : JSON.stringify(v), 120)}`)
    .join(' · ');
}

function parse(json: string | null | undefined): Input | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Input) : null;
  } catch {
    return null;
  }
}

/** The card's sentence for a permission request (plans render their Markdown instead). */
export function cardWords(a: Pick<ApprovalView, 'tool' | 'detail' | 'summary' | 'input'>): Words {
  const input = parse(a.input);
  if (input && a.tool === 'TeamCreate') return teamCreate(input);
  if (input && a.tool === 'SpawnTeammate') return spawnTeammate(input);
  if (input && a.tool === 'TeamMerge') return teamMerge(input);
  // A command or a path reads as itself; otherwise the input's fields, never raw JSON.
  if (a.detail) return [{ text: a.detail }];
  if (input) return [{ text: pairs(input) || a.tool }];
  return [{ text: a.summary }];
}

/** The sentence as plain text (the announcer, the notification). */
export function wordsText(w: Words): string {
  return w.map((r) => r.text).join('');
}

/** Where "Always" stores its rule and what it covers, as the button's name says it. */
export function alwaysSentence(a: Pick<ApprovalView, 'agent' | 'rule'>): string {
  const who = a.agent === LEAD ? '' : ` for ${a.agent}`;
  return `Always allow ${a.rule}${who} in this project — saved in .thclaws/settings.local.json`;
}
