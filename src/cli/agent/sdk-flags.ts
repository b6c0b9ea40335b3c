/**
 * Claude Code flags the Agent SDK may pass that thclaws cannot honour yet: each is accepted by the parser
 * only to be refused by name with the reason (exit 2), never ignored, so a caller relying on one learns at once.
 * Also the value parsers of the SDK flags that are honoured (one-line errors, exit 2).
 */
import { Option, type Command } from 'commander';
import { CliError } from '../errors.js';

/** flag (with its value, if any) → why it is refused. */
const REFUSED: ReadonlyArray<[string, string]> = [
  ['--tools <tools>', 'the base tool set is fixed; hide tools with --disallowedTools'],
  ['--agent <name>', 'agents run as team members (thclaws team), not as the session\'s main agent'],
  ['--agents <json>', 'subagents come from .thclaws/agents/*.md'],
  ['--betas <betas>', 'API beta headers are not passed through'],
  ['--fork-session', 'a resumed session continues in its own transcript'],
  ['--session-id <id>', 'session ids are chosen by thclaws'],
  ['--resume-session-at <id>', 'a session resumes at its end'],
  ['--include-hook-events', 'hook events are not streamed'],
  ['--plugin-dir <dir>', 'plugins are not supported'],
];

const key = (flag: string) =>
  flag
    .split(' ')[0]!
    .replace(/^--(no-)?/, '')
    .replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

export function addRefusedSdkFlags(cmd: Command): void {
  for (const [flag] of REFUSED) cmd.addOption(new Option(flag).hideHelp());
}

/** Throws for the first refused flag given. */
export function refuseSdkFlags(opts: Record<string, unknown>): void {
  for (const [flag, why] of REFUSED) {
    const k = key(flag);
    // `--no-x` sets x to false; the others set a value or true.
    const given = flag.startsWith('--no-') ? opts[k] === false : opts[k] !== undefined;
    if (given) throw new CliError(`${flag.split(' ')[0]} is not supported by thclaws: ${why}`);
  }
}

/** `--max-budget-usd`: a positive number of US dollars. */
export function budgetUsd(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`--max-budget-usd must be a positive number of US dollars, got "${value}"`);
  return n;
}

/** `--max-thinking-tokens`: 0 turns thinking off; otherwise a budget (the API's minimum is 1024). */
export function thinkingTokens(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`--max-thinking-tokens must be 0 (no thinking) or a number of tokens, got "${value}"`);
  return n;
}

/** `--fallback-model a,b`: models tried in order when the main one is overloaded or unavailable. */
export function fallbackModels(value: string, previous: string[] = []): string[] {
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (!list.length) throw new CliError('--fallback-model needs a model id or alias');
  return [...previous, ...list];
}

export const SETTING_SOURCES = ['user', 'project', 'local'] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/** `--setting-sources user,project,local`: which settings files are read (none given: all three). */
export function settingSources(value: string): SettingSource[] {
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((s) => !(SETTING_SOURCES as readonly string[]).includes(s));
  if (bad !== undefined) throw new CliError(`--setting-sources: "${bad}" is not a settings source (user, project, local)`);
  return list as SettingSource[];
}
