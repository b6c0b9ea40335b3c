/** `thclaws team budget <name|--team|--role R> --usd N | --tokens N`: the team's spending limits in budgets.json. */
import type { Command } from 'commander';
import type { BudgetLimit } from '../../contract/settings-schema.js';
import { LEAD, type BudgetTarget } from '../../core/store/index.js';
import { CliError } from '../errors.js';
import { action, openStore, print, withCommon, type CommonOpts } from './common.js';

function amount(flag: string, value: string | undefined, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new CliError(`${flag}: expected a ${integer ? 'whole ' : ''}number above 0, got "${value}"`, 2);
  return n;
}

export function registerBudgetCommand(team: Command): void {
  withCommon(team.command('budget [name]'))
    .description('set a spending limit for a teammate, a role (--role) or the whole team (--team); raising one resumes a teammate waiting on it')
    .option('--team', 'the whole team')
    .option('--role <role>', 'every teammate with this role')
    .option('--usd <amount>', 'limit in US dollars (estimated from the model price tables)')
    .option('--tokens <count>', 'limit in tokens (input + output + cache)')
    .option('--clear', 'remove the limit')
    .action(
      action(async (name: string | undefined, opts: CommonOpts & { team?: boolean; role?: string; usd?: string; tokens?: string; clear?: boolean }) => {
        const targets = [name !== undefined, !!opts.team, opts.role !== undefined].filter(Boolean).length;
        if (targets !== 1) throw new CliError('team budget: name exactly one of <name>, --team or --role <role>', 2);
        const usd = amount('--usd', opts.usd, false);
        const tokens = amount('--tokens', opts.tokens, true);
        if (!opts.clear && usd === undefined && tokens === undefined) throw new CliError('team budget: give --usd <amount>, --tokens <count>, or --clear', 2);
        if (opts.clear && (usd !== undefined || tokens !== undefined)) throw new CliError('team budget: --clear removes the limit; give it without --usd or --tokens', 2);
        const target: BudgetTarget = opts.team ? { team: true } : opts.role !== undefined ? { role: opts.role } : { agent: name! };
        const store = openStore(opts);
        if ('agent' in target) {
          // The lead's turns are the person's: only teammates are held, so a lead limit would never act.
          if (target.agent === LEAD) throw new CliError('team budget: the lead is never held by a budget; limit the whole team with --team', 2);
          const members = (await store.config.require()).members.map((m) => m.name);
          if (!members.includes(target.agent)) throw new CliError(`team budget: no teammate named "${target.agent}" (members: ${members.join(', ') || 'none'})`, 2);
        }
        const limit = opts.clear ? null : { ...(usd !== undefined ? { usd } : {}), ...(tokens !== undefined ? { tokens } : {}) };
        // One unit given keeps the other: `--tokens N` on a target with a USD limit keeps it.
        const budgets = await store.budgets.set(target, limit, { merge: true });
        const recovered = store.budgets.notice();
        if (recovered) process.stderr.write(`thclaws: warning: ${recovered}\n`);
        const who = 'team' in target ? 'the team' : 'role' in target ? `role ${target.role}` : target.agent;
        const own = (table: Record<string, BudgetLimit>, key: string) => (Object.hasOwn(table, key) ? table[key] : undefined);
        const now = 'team' in target ? budgets.team : 'role' in target ? own(budgets.roles, target.role.trim()) : own(budgets.teammates, target.agent);
        const what = now ? [now.usd !== undefined ? `$${now.usd}` : '', now.tokens !== undefined ? `${now.tokens.toLocaleString('en-US')} tokens` : ''].filter(Boolean).join(' and ') : 'no limit';
        print(opts, budgets, () => `budget of ${who}: ${what}`);
      }),
    );
}
