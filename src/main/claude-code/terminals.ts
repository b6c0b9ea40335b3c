/**
 * One view's terminals of a Claude Code team: a member with a live tmux pane (the lead, a pane teammate) is
 * streamed through tmux control mode with its screen restored on attach; any other member (an in-process
 * teammate, or everyone once the team ended) shows its transcript as the pane's text, read-only.
 */
import type { HostEvent } from '../../contract/api.js';
import { logOf } from '../../core/claude-code/log.js';
import type { MemberView, TeamView } from '../../core/claude-code/teams.js';
import { readTranscript } from '../../core/claude-code/transcripts.js';
import { tmuxSocketOf, TmuxServer } from './tmux.js';
import { agentNameOf, transcriptText } from './to-api.js';

interface Shown {
  /** What it shows: `pane:<socket>:<id>` or `transcript:<file>`: a change restarts it. */
  source: string;
  seq: number;
  /** The transcript text sent so far (a transcript source). */
  text: string;
  size?: { cols: number; rows: number };
  stop(): void;
}

/** Every view shares one control-mode client per tmux server. */
const servers = new Map<string, TmuxServer>();
export function tmuxServer(socket: string | undefined): TmuxServer {
  const key = socket ?? '';
  let s = servers.get(key);
  if (!s) servers.set(key, (s = new TmuxServer(socket)));
  return s;
}

export async function paneOf(team: TeamView, m: MemberView): Promise<{ server: TmuxServer; pane: string } | undefined> {
  if (team.ended || !m.tmuxPane) return undefined;
  return { server: tmuxServer(await tmuxSocketOf(team.leadPid)), pane: m.tmuxPane };
}

export class ViewTerminals {
  private readonly shown = new Map<string, Shown>();
  private readonly wanted = new Set<string>();

  constructor(private readonly out: (e: HostEvent) => void) {}

  attach(agent: string): void {
    this.wanted.add(agent);
  }

  detach(agent: string): void {
    this.wanted.delete(agent);
    this.shown.get(agent)?.stop();
    this.shown.delete(agent);
  }

  /** Brings every attached terminal up to date with the team as last read. */
  async refresh(team: TeamView | undefined): Promise<void> {
    for (const agent of this.wanted) {
      const m = team?.members.find((x) => agentNameOf(x.name) === agent);
      if (!team || !m) continue;
      try {
        await this.show(agent, team, m);
      } catch (err) {
        // A pane gone between the read and tmux's answer: the next refresh shows its transcript.
        this.out({ type: 'notice', level: 'warn', text: `${agent}'s terminal: ${(err as Error).message.split('\n')[0]}` });
        this.detachSource(agent);
      }
    }
  }

  private detachSource(agent: string): void {
    this.shown.get(agent)?.stop();
    this.shown.delete(agent);
  }

  private async show(agent: string, team: TeamView, m: MemberView): Promise<void> {
    const pane = await paneOf(team, m);
    const source = pane ? `pane:${pane.server.socket ?? ''}:${pane.pane}` : m.transcript ? `transcript:${m.transcript}` : 'none';
    let cur = this.shown.get(agent);
    if (cur && cur.source !== source) {
      this.detachSource(agent);
      cur = undefined;
    }
    if (pane) {
      if (!cur) await this.startPane(agent, source, pane.server, pane.pane);
      else await this.resize(agent, cur, pane.server, pane.pane);
      return;
    }
    const text = m.transcript ? transcriptText(logOf(m.name, await readTranscript(m.transcript))) : 'No terminal: this member has no tmux pane and no transcript yet.\r\n';
    if (!cur) {
      this.shown.set(agent, { source, seq: text.length, text, stop: () => undefined });
      this.out({ type: 'replay', agent, seq: 0, data: text });
    } else if (text !== cur.text) {
      if (text.startsWith(cur.text)) {
        this.out({ type: 'output', agent, seq: cur.seq, data: text.slice(cur.text.length) });
        cur.seq += text.length - cur.text.length;
      } else {
        this.out({ type: 'replay', agent, seq: cur.seq, data: text });
        cur.seq += text.length;
      }
      cur.text = text;
    }
  }

  private async startPane(agent: string, source: string, server: TmuxServer, pane: string): Promise<void> {
    // Output that comes while the screen is captured waits, then follows the screen it may overlap.
    let held: string[] | null = [];
    const shown: Shown = { source, seq: 0, text: '', stop: () => undefined };
    const emit = (data: string) => {
      this.out({ type: 'output', agent, seq: shown.seq, data });
      shown.seq += data.length;
    };
    shown.stop = server.watch(pane, pane, (data) => (held ? held.push(data) : emit(data)));
    this.shown.set(agent, shown);
    let screen;
    try {
      screen = await server.screen(pane);
    } catch (err) {
      shown.stop();
      this.shown.delete(agent);
      throw err;
    }
    if (this.shown.get(agent) !== shown) return;
    shown.size = { cols: screen.cols, rows: screen.rows };
    this.out({ type: 'pty_size', agent, cols: screen.cols, rows: screen.rows });
    this.out({ type: 'replay', agent, seq: 0, data: screen.data });
    shown.seq = screen.data.length;
    const rest = held;
    held = null;
    for (const d of rest) emit(d);
  }

  /** The person resized their tmux window: every view shows the pane at its new size. */
  private async resize(agent: string, cur: Shown, server: TmuxServer, pane: string): Promise<void> {
    const [cols, rows] = (await server.run('display-message', '-p', '-t', pane, '#{pane_width} #{pane_height}')).trim().split(' ').map(Number) as [number, number];
    if (cur.size && (cur.size.cols !== cols || cur.size.rows !== rows) && cols >= 2 && rows >= 1) {
      cur.size = { cols, rows };
      this.out({ type: 'pty_size', agent, cols: Math.min(1000, cols), rows: Math.min(500, rows) });
    }
  }

  close(): void {
    for (const s of this.shown.values()) s.stop();
    this.shown.clear();
    this.wanted.clear();
  }
}
