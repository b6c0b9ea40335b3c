import fs from 'node:fs';
import path from 'node:path';
import { parseRequest, type HostEvent, type Request } from '../../contract/api.js';
import { LEAD } from '../../core/store/index.js';
import { prepareDemoWorkspace, type DemoWorkspace } from './demo-workspace.js';
import { typeWhenReady } from './lead-prompt.js';
import { HostSession } from './session.js';
import type { TeamHost, TeamHostOptions } from './team-host.js';

/**
 * Holds the open workspace's TeamHost and lets views switch workspace: the old host is closed (its ptys
 * stopped) and every connected view is re-bound to the new one.
 */
export class HostManager {
  private connections = new Set<Connection>();
  private switching: Promise<void> = Promise.resolve();
  /** The options of the workspace first opened: another folder opens with these, never with a demo's. */
  private readonly base: TeamHostOptions;
  private readonly demos: DemoWorkspace[] = [];

  constructor(
    private current: TeamHost,
    private readonly make: (opts: TeamHostOptions) => TeamHost,
  ) {
    const { leadPrompt: _typed, ...base } = current.opts;
    this.base = base;
  }

  get host(): TeamHost {
    return this.current;
  }

  connect(out: (event: HostEvent) => void): Connection {
    const c = new Connection(this, out);
    this.connections.add(c);
    return c;
  }

  forget(c: Connection): void {
    this.connections.delete(c);
  }

  async open(dir: string): Promise<void> {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`not a directory: ${dir}`);
    await this.switchTo({ ...this.base, workspace: path.resolve(dir) });
  }

  /** "Try the demo team here": a throw-away workspace running the scripted demo team, in this dashboard. */
  async openDemo(): Promise<string> {
    const demo = prepareDemoWorkspace();
    this.demos.push(demo);
    await this.switchTo({ ...this.base, ...demo.hostOptions, env: { ...this.base.env, ...demo.hostOptions.env } });
    return demo.workspace;
  }

  private async switchTo(opts: TeamHostOptions): Promise<void> {
    const next = this.make(opts);
    this.switching = this.switching.then(async () => {
      await this.current.close();
      await next.open();
      this.current = next;
      for (const c of this.connections) c.rebind();
      if (opts.leadPrompt && opts.startLead !== false) void typeWhenReady(next.terminal(LEAD), opts.leadPrompt);
    });
    await this.switching;
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.close();
    await this.current.close();
    for (const d of this.demos.splice(0)) d.remove();
  }
}

/** One view's connection; requests go to the current host's session. */
export class Connection {
  private session: HostSession;
  private mayHoldKey = false;

  constructor(
    private readonly manager: HostManager,
    private readonly out: (event: HostEvent) => void,
  ) {
    this.session = new HostSession(manager.host, out);
  }

  /** The in-process dashboard's edge (its WebSocket): the request is parsed here, once, and served typed. */
  async handle(raw: unknown): Promise<void> {
    const parsed = parseRequest(raw);
    if (!parsed.ok) return this.out({ type: 'reply', id: parsed.id, ok: false, error: parsed.error });
    await this.serve(parsed.request);
  }

  /** A request already validated where it entered this process (the host's socket, or handle above). */
  async serve(req: Request): Promise<void> {
    if (req.type === 'open_workspace' || req.type === 'demo_start') {
      const id = req.id;
      try {
        const result = req.type === 'open_workspace' ? await this.manager.open(req.dir) : await this.manager.openDemo();
        this.out({ type: 'reply', id, ok: true, ...(result === undefined ? {} : { result }) });
      } catch (err) {
        this.out({ type: 'reply', id, ok: false, error: (err as Error).message.split('\n')[0]! });
      }
      return;
    }
    await this.session.serve(req);
  }

  /** The desktop app's main process (its hello said so): it may hand the host its decrypted key (see HostSession.mayHoldKey). */
  allowKeyHold(): void {
    this.mayHoldKey = this.session.mayHoldKey = true;
  }

  rebind(): void {
    this.session.close();
    this.session = new HostSession(this.manager.host, this.out);
    this.session.mayHoldKey = this.mayHoldKey;
    this.manager.host.snapshot(this.session);
  }

  close(): void {
    this.session.close();
    this.manager.forget(this);
  }
}
