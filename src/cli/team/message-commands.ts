import type { Command } from 'commander';
import { knownNames, USER } from '../../core/store/index.js';
import { CliError } from '../errors.js';
import { action, openStore, print, teammateSelf, withCommon, type CommonOpts } from './common.js';

export function registerMessageCommands(team: Command): void {
  withCommon(team.command('send <to> <text>'))
    .description('send a message to a member, the lead, or * (everyone)')
    .option('--from <name>', 'sender name (default: user; inside a teammate: that teammate, and only it)')
    .option('--summary <text>', 'one-line summary (default: the first words)')
    .option('--urgent', "deliver at the recipient's next tool call instead of after its turn")
    .action(
      action(async (to: string, text: string, opts: CommonOpts & { from?: string; summary?: string; urgent?: boolean }) => {
        const self = teammateSelf();
        if (self && opts.from !== undefined && opts.from !== self) throw new CliError(`a teammate (${self}) may send only as itself, not as "${opts.from}"`);
        const sent = await openStore(opts).send(opts.from ?? self ?? USER, to, text, { summary: opts.summary, ...(opts.urgent ? { extra: { urgent: true } } : {}) });
        print(opts, sent, () => sent.map((m) => `sent ${m.id} to ${m.to}`).join('\n'));
      }),
    );

  withCommon(team.command('inbox <agent>'))
    .description("show an agent's unread messages")
    .option('--all', 'include read messages')
    .option('--mark-read', 'mark the shown messages read')
    .action(
      action(async (agent: string, opts: CommonOpts & { all?: boolean; markRead?: boolean }) => {
        const store = openStore(opts);
        const known = knownNames(await store.config.require());
        if (!known.includes(agent)) throw new CliError(`unknown agent "${agent}"; known: ${known.join(', ')}`);
        const live = await store.inboxes.read(agent);
        const messages = opts.all ? live : live.filter((m) => !m.read);
        if (opts.markRead) await store.inboxes.markRead(agent, messages.map((m) => m.id));
        print(opts, messages, () =>
          messages.length
            ? messages.map((m) => `${new Date(m.timestamp).toISOString()}  ${m.from} -> ${m.to ?? agent}${m.read ? ' (read)' : ''}${m.type ? ` [${m.type}]` : ''}\n  ${m.text}`).join('\n')
            : '(no messages)',
        );
      }),
    );

  withCommon(team.command('abort <agent>'))
    .description("abort a teammate's running turn (sent as the person, `user`, in the current session)")
    .action(
      action(async (agent: string, opts: CommonOpts) => {
        const self = teammateSelf();
        if (self) throw new CliError(`a teammate (${self}) cannot abort turns; ask the lead`);
        const store = openStore(opts);
        const known = knownNames(await store.config.require());
        if (!known.includes(agent) || agent === USER) throw new CliError(`unknown teammate "${agent}"; known: ${known.join(', ')}`);
        const { sendFrame } = await import('../../core/teams/protocol.js');
        const m = await sendFrame(store, USER, agent, 'abort_turn', {});
        print(opts, m, () => `abort_turn sent to ${agent}`);
      }),
    );
}
