import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../errors.js';
import { withCommon, type CommonOpts } from './common.js';

interface Outcome {
  resumed: { name: string; session_id: string }[];
  fresh: string[];
  failed: { name: string; error: string }[];
}

/**
 * `thclaws team resume`: asks the workspace's host (started detached when none runs, as after a reboot) to
 * start every dead or stopped teammate again on its saved conversation. The host owns the teammates' ptys, so
 * they outlive this command; it prints what happened and exits 1 when any member could not start.
 */
export function registerResumeCommand(team: Command): void {
  withCommon(team.command('resume'))
    .description("start every dead or stopped teammate again in its own folder, continuing its saved conversation (through the workspace's host)")
    .action(async (opts: CommonOpts) => {
      const dir = path.resolve(opts.dir ?? process.cwd());
      if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`--dir ${dir} is not a directory`);
      const [{ connectOrStartHost }, { thclawsBin }] = await Promise.all([import('../../main/daemon/host-client.js'), import('../../main/host/host-options.js')]);
      const host = await connectOrStartHost(dir, [thclawsBin(), 'host', '--dir', dir], { client: 'cli' }).catch((err: Error) => {
        throw new CliError(`cannot reach the workspace's host: ${err.message.split('\n')[0]}`, 1);
      });
      const reply = await new Promise<{ ok: boolean; result?: unknown; error?: string }>((resolve) => {
        host.onEvent((ev) => ev.type === 'reply' && ev.id === 1 && resolve(ev as never));
        host.onClose(() => resolve({ ok: false, error: 'the host closed the connection' }));
        host.send({ id: 1, type: 'team_resume' });
      });
      host.close();
      if (!reply.ok) throw new CliError(reply.error ?? 'the host refused', 2);
      const out = reply.result as Outcome;
      if (opts.json) process.stdout.write(`${JSON.stringify(out)}\n`);
      else {
        for (const r of out.resumed) process.stdout.write(`resumed ${r.name} (session ${r.session_id})\n`);
        for (const n of out.fresh) process.stdout.write(`started ${n} fresh (no saved conversation)\n`);
      }
      for (const f of out.failed) process.stderr.write(`thclaws: ${f.name} could not start: ${f.error}\n`);
      if (out.failed.length && !out.resumed.length && !out.fresh.length) process.stderr.write(`thclaws: nothing came up (${out.failed.length} could not start)\n`);
      if (out.failed.length) process.exitCode = 1;
    });
}
