import { z } from 'zod';
import { BROADCAST, LEAD, deriveState } from '../../store/index.js';
import type { TeammateStore } from '../../store/teammate-store.js';
import type { TeamSession } from '../session.js';
import { err, teamTool } from './common.js';

const SendInput = z
  .object({
    to: z.string().describe('teammate name, "lead", "user", or "*" for everyone'),
    text: z.string().optional(),
    content: z.string().optional().describe('legacy alias of text'),
    summary: z.string().max(200).optional().describe('a few words shown in lists'),
    urgent: z.boolean().optional().describe('deliver at the recipient\'s next tool boundary instead of after its turn'),
  })
  .strict();

/** Refuses messages nobody will ever read: a stopped or dead teammate must be respawned first. */
async function livenessGate(store: Pick<TeammateStore, 'statuses'>, to: string): Promise<string | null> {
  if (to === BROADCAST || to === LEAD || to === 'user') return null;
  const st = await store.statuses.read(to);
  const state = deriveState(st);
  if (state === 'stopped') return `teammate '${to}' is stopped — cannot receive messages. Use SpawnTeammate to respawn it first.`;
  if (state === 'dead') return `teammate '${to}' is not running (its process is gone or silent for over 15 s). Respawn it with SpawnTeammate or reassign its work.`;
  return null;
}

/** `role` lead: the tools speak and read as `lead`, so only the lead's session may use them. */
export function messageTools(session: TeamSession, role: 'lead' | 'teammate') {
  return [
    teamTool(
      {
        name: 'SendMessage',
        leadOnly: role === 'lead',
        description:
          'Send a message to a teammate, the lead, the person ("user") or everyone ("*"). A busy recipient gets it after its current turn; set urgent to deliver it at its next tool call.',
        inputSchema: SendInput,
        async run(input, s) {
          const text = input.text ?? input.content;
          if (!text?.trim()) return err("missing 'text' field");
          const refused = await livenessGate(s.team, input.to);
          if (refused) return err(refused);
          const sent = await s.team.send(s.me, input.to, text, { summary: input.summary ?? null, ...(input.urgent ? { extra: { urgent: true } } : {}) });
          return input.to === BROADCAST ? `Broadcast sent to: ${sent.map((m) => m.to).join(', ')}` : `Message sent to '${input.to}'${input.urgent ? ' (urgent)' : ''}`;
        },
      },
      session,
    ),
    teamTool(
      {
        name: 'CheckInbox',
        leadOnly: role === 'lead',
        description: 'Read your new messages (the team loop usually delivers them to you already).',
        inputSchema: z.object({}).strict(),
        async run(_input, s) {
          const fresh = s.inbox().take((m) => !m.type);
          if (!fresh.length) return 'No new messages.';
          await s.inbox().ack(fresh.map((m) => m.id));
          return fresh.map((m) => `From: ${m.from}\n${m.text}`).join('\n\n---\n\n');
        },
      },
      session,
    ),
  ];
}
