/**
 * The lead in the REPL: teammate messages become lead turns through the shared LeadHandler (at once when the
 * person is at the prompt, after the turn otherwise), `/team` shows the team, and leaving the REPL runs the
 * shutdown protocol — a teammate that still has work keeps running unless the person confirms.
 */
import { spawnSync } from 'node:child_process';
import type { TeamSession } from '../../core/teams/session.js';
import { registerSlashCommand, replExtensions, type ReplContext } from './hooks.js';
import { describeLeadEvent } from './team-run.js';
import { registerApprovalSlashCommands } from './team-approvals-repl.js';

export function registerTeamRepl(session: TeamSession): void {
  registerSlashCommand('team', {
    help: 'team roster with state, tasks and recent messages',
    run: async ({ print }) => {
      if (!session.teamExists()) return print('no team configured (TeamCreate makes one)');
      const { teamStatusText } = await import('../../core/teams/status-view.js');
      print(await teamStatusText(session.store));
      const { currentSandboxStatus, describeSandboxStatus } = await import('../../core/sandbox/status.js');
      print(describeSandboxStatus(currentSandboxStatus())); // "guards only" when the OS sandbox cannot run
      const recent = session.store.inboxes.list('lead').slice(-5);
      if (recent.length) {
        print('\n## Recent messages to the lead');
        for (const m of recent) print(`  ${new Date(m.timestamp).toLocaleTimeString()} ${m.from}: ${m.summary ?? m.text.slice(0, 80)}`);
      }
      if (spawnSync('tmux', ['has-session', '-t', 'thclaws-team'], { stdio: 'ignore' }).status === 0) print('\n(teammate panes: tmux attach -t thclaws-team)');
    },
  });
  registerApprovalSlashCommands(session);
  replExtensions.push((ctx) => attach(session, ctx));
}

function attach(session: TeamSession, ctx: ReplContext) {
  let handler: import('../../core/teams/lead-handler.js').LeadHandler | undefined;
  let pending = false;
  const start = async () => {
    if (handler || session.role !== 'lead' || !session.teamExists()) return;
    const { LeadHandler } = await import('../../core/teams/lead-handler.js');
    const h = new LeadHandler(session);
    handler = h;
    h.onEvent((e) => e.kind !== 'status' && ctx.print(describeLeadEvent(e)));
    // One lead turn at a time: a batch is taken when the REPL gets to it, acked after it ran.
    const offer = () => {
      if (pending) return;
      pending = true;
      queueMicrotask(() => {
        const batch = h.drain();
        if (!batch.prompt) {
          pending = false;
          void h.ack(batch.ids);
          return;
        }
        ctx.inject(batch.prompt, async () => {
          await h.ack(batch.ids);
          pending = false;
          offer();
        });
      });
    };
    h.onWake(offer);
    h.start();
    offer();
  };
  void start();
  session.onRole(() => void start());
  return {
    onPersonPrompt: (text: string) => session.notePersonPrompt(text),
    onExit: async () => {
      if (!handler) return session.close();
      const { shutdownTeam } = await import('../../core/teams/shutdown.js');
      const res = await shutdownTeam(session, handler, { print: ctx.print });
      if (res.kept.length) {
        const ans = await ctx.ask(`${res.kept.join(', ')} still ${res.kept.length > 1 ? 'have' : 'has'} work and keep${res.kept.length > 1 ? '' : 's'} running. Stop ${res.kept.length > 1 ? 'them' : 'it'} now? [y/N] `);
        if (ans && /^y/i.test(ans.trim())) await shutdownTeam(session, handler, { graceMs: 500, force: true, print: ctx.print });
      }
      handler.stop();
      await session.close();
    },
  };
}
