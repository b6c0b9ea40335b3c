/** Built-in REPL slash commands; later issues add theirs through registerSlashCommand. */
import { resolveModelAlias } from '../../contract/models.js';
import { slashCommands, registerSlashCommand as register, type SlashCommand } from './hooks.js';

/** Built-ins never replace a command another issue registered first (e.g. /team). */
function registerSlashCommand(name: string, command: SlashCommand): void {
  if (!slashCommands.has(name)) register(name, command);
}

export function registerBuiltinSlashCommands(): void {
  registerSlashCommand('help', {
    help: 'list commands and keys',
    run: ({ print }) => {
      for (const [name, c] of slashCommands) print(`  /${name.padEnd(8)} ${c.help}`);
      print('  /quit     exit (also Ctrl-D)');
      print('  Ctrl-C aborts the running turn; at the prompt it clears the line.');
    },
  });
  registerSlashCommand('model', {
    help: 'show the model, or switch: /model <id, alias (sonnet, opus, haiku) or <profile>/<model>>',
    run: ({ agent, args, print }) => {
      try {
        if (args) agent.setModel(resolveModelAlias(args));
      } catch (err) {
        print(`model not changed: ${(err as Error).message}`);
        return;
      }
      print(`model: ${agent.model} (provider ${agent.provider.name})`);
    },
  });
  registerSlashCommand('thinking', {
    help: 'show the thinking of the last turn in full',
    run: ({ agent, print }) => {
      // The last turn: every assistant message after the last prompt the person typed.
      let start = agent.messages.length;
      while (start > 0 && !(agent.messages[start - 1]!.role === 'user' && agent.messages[start - 1]!.content.some((b) => b.type === 'text'))) start--;
      const thoughts = agent.messages
        .slice(start)
        .flatMap((m) => m.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : b.type === 'redacted_thinking' ? ['(redacted)'] : [])));
      print(thoughts.length ? thoughts.join('\n\n') : '(no thinking in the last turn)');
    },
  });
  registerSlashCommand('clear', {
    help: 'forget the conversation and start a new session',
    run: ({ agent, print }) => {
      agent.clear();
      print(`conversation cleared; new session ${agent.session.id}`);
    },
  });
  registerSlashCommand('cost', {
    help: 'tokens and estimated cost of this session',
    run: ({ agent, print }) => {
      const u = agent.usage;
      print(
        `tokens: ${u.inputTokens} in, ${u.outputTokens} out, ${u.cacheReadTokens} cache read, ${u.cacheWriteTokens} cache write; ` +
          (agent.costKnown ? `cost ≈ $${agent.costUsd.toFixed(4)}` : 'cost $? (a model without a known price)'),
      );
    },
  });
  registerSlashCommand('session', {
    help: 'show the session id (for --resume)',
    run: ({ agent, print }) => print(`session: ${agent.session.id} (${agent.session.file})`),
  });
  registerSlashCommand('team', {
    help: 'team status and actions (Agent Teams)',
    run: ({ print }) => print('team: Agent Teams are not available in this build yet'),
  });
}
