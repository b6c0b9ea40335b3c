import headlessPkg from '@xterm/headless';
import WebSocket from 'ws';
import type { HostEvent, Member } from '../../src/contract/api.js';
import { connectHost, type HostConnection } from '../../src/main/daemon/host-client.js';
import { bufferText } from '../../src/main/host/screen-mirror.js';
import { messageEvents } from './helpers.js';

const { Terminal } = headlessPkg;

/** What one agent's terminal received: the replay's `seq`, then every output character after it. */
export interface Received {
  from: number;
  data: string;
  /** Output events whose `seq` did not follow on from the previous one (a gap or an overlap). */
  breaks: string[];
}

/**
 * A view of the team as the renderer is one: it writes each agent's replay and output into a terminal of its
 * own (xterm, headless), acknowledges as a renderer does, and keeps what it received to compare byte for byte.
 * Over the dashboard's WebSocket, or straight on the workspace host's socket.
 */
export class TermView {
  readonly events: HostEvent[] = [];
  private readonly terms = new Map<string, InstanceType<typeof Terminal>>();
  readonly received = new Map<string, Received>();
  private chain = Promise.resolve();
  private next = 1;

  constructor(
    private readonly sendRaw: (obj: unknown) => void,
    private readonly closeRaw: () => void,
    private readonly size = { cols: 120, rows: 32 },
  ) {}

  /** `query`: more of the socket's query, as a page adds it (`&nostart=1`). */
  static async overWebSocket(url: string, query = ''): Promise<TermView> {
    const u = new URL(url);
    const ws = new WebSocket(`ws://${u.host}/ws?token=${u.searchParams.get('token')}${query}`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const v = new TermView((o) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(o)), () => ws.terminate());
    ws.on('message', (d) => messageEvents(d.toString()).forEach((e) => v.onEvent(e)));
    return v;
  }

  static async overHostSocket(workspace: string, env: NodeJS.ProcessEnv): Promise<TermView> {
    return TermView.over(await connectHost(workspace, { client: 'test', env }));
  }

  /** Over a connection to a host already made (its socket, or ssh to another machine's). */
  static over(c: HostConnection): TermView {
    const v = new TermView((o) => c.send(o), () => c.close());
    c.onEvent((e) => v.onEvent(e));
    return v;
  }

  private term(agent: string) {
    let t = this.terms.get(agent);
    if (!t) this.terms.set(agent, (t = new Terminal({ ...this.size, scrollback: 1000, allowProposedApi: true })));
    return t;
  }

  private onEvent(ev: HostEvent): void {
    this.events.push(ev);
    if (ev.type === 'replay' || ev.type === 'output') {
      const t = this.term(ev.agent);
      if (ev.type === 'replay') this.received.set(ev.agent, { from: ev.seq, data: '', breaks: [] });
      else {
        const r = this.received.get(ev.agent) ?? { from: ev.seq, data: '', breaks: [] };
        if (ev.seq !== r.from + r.data.length) r.breaks.push(`${ev.seq} after ${r.from + r.data.length}`);
        r.data += ev.data;
        this.received.set(ev.agent, r);
      }
      this.chain = this.chain.then(() => new Promise<void>((res) => {
        if (ev.type === 'replay') t.reset();
        t.write(ev.data, res);
      }));
      // Acknowledged as a renderer does, or flow control would pause the agent for this view.
      if (ev.data.length) this.sendRaw({ id: 0, type: 'ack', agent: ev.agent, chars: ev.data.length });
    }
    if (ev.type === 'pty_size') this.chain = this.chain.then(() => this.term(ev.agent).resize(ev.cols, ev.rows));
  }

  /** Sends a request; resolves with its reply. */
  request(body: Record<string, unknown>): Promise<Extract<HostEvent, { type: 'reply' }>> {
    const id = this.next++;
    this.sendRaw({ id, ...body });
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const look = () => {
        const r = this.events.find((e) => e.type === 'reply' && e.id === id);
        if (r) return resolve(r as Extract<HostEvent, { type: 'reply' }>);
        if (Date.now() - started > 60_000) return reject(new Error(`no reply to ${JSON.stringify(body)}`));
        setTimeout(look, 20);
      };
      look();
    });
  }

  fire(body: Record<string, unknown>): void {
    this.sendRaw({ id: 0, ...body });
  }

  attachAll(agents: string[]): void {
    this.fire({ type: 'subscribe' });
    for (const agent of agents) this.fire({ type: 'attach', agent, ...this.size });
  }

  member(name: string): Member | undefined {
    let m: Member | undefined;
    for (const e of this.events) {
      if (e.type === 'roster') m = e.members.find((x) => x.name === name) ?? m;
      if (e.type === 'member' && e.member.name === name) m = e.member;
    }
    return m;
  }

  pid(name: string): number | null {
    const t = this.member(name)?.terminal;
    return t?.kind === 'pty' ? t.pid : null;
  }

  async text(agent: string): Promise<string> {
    await this.chain;
    return this.terms.has(agent) ? bufferText(this.term(agent)) : '';
  }

  close(): void {
    this.closeRaw();
  }
}

/** What a terminal that saw every byte of `log` shows at `size` (the reference a restored pane must equal). */
export async function referenceText(log: string, size = { cols: 120, rows: 32 }): Promise<string> {
  const t = new Terminal({ ...size, scrollback: 1000, allowProposedApi: true });
  await new Promise<void>((r) => t.write(log, r));
  const text = bufferText(t);
  t.dispose();
  return text;
}
