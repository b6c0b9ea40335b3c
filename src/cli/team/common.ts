import path from 'node:path';
import type { Command } from 'commander';
import { TeamError, TeamStore } from '../../core/store/index.js';
import { CliError } from '../errors.js';
import { printable } from '../../contract/model-name.js';

export interface CommonOpts {
  dir?: string;
  json?: boolean;
}

/** Adds the options every `team` subcommand takes. */
export function withCommon(cmd: Command): Command {
  return cmd.option('--dir <workspace>', 'workspace whose team to use (default: current directory)').option('--json', 'machine-readable output');
}

export function openStore(opts: CommonOpts): TeamStore {
  return TeamStore.forWorkspace(path.resolve(opts.dir ?? process.cwd()));
}

/** Runs an action; store errors become one CLI line with exit code 2. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      if (err instanceof TeamError) throw new CliError(err.message, 2);
      throw err;
    }
  };
}

export function print(opts: CommonOpts, value: unknown, human: () => string): void {
  process.stdout.write(opts.json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}

export function parseIdList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function age(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < 1000) return `${ms}ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)}s`;
  return `${Math.round(ms / 60_000)}m`;
}

/** Pads columns for a plain-text table. */
/** Cells come from team files a model wrote (names, roles, models): control characters are shown, not acted on. */
export function table(cells: string[][]): string {
  const rows = cells.map((r) => r.map(printable));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

/**
 * A teammate's own subprocesses (its Bash) inherit THCLAWS_TEAM_AGENT: from there the CLI acts only as that
 * teammate and sends no control frames. A guard against slips, not a wall (the env can be dropped): the OS
 * sandbox keeps `.thclaws/` read-only to a teammate.
 */
export function teammateSelf(): string | undefined {
  const me = process.env.THCLAWS_TEAM_AGENT;
  return me && me !== 'lead' ? me : undefined;
}

/** `--as <name>` from inside a teammate: only that teammate itself. */
export function assertActingAsSelf(name: string): void {
  const self = teammateSelf();
  if (self && name !== self) throw new CliError(`a teammate (${self}) may act only as itself, not as "${name}"`);
}
