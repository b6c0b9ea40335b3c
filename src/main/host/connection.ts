import fs from 'node:fs';
import path from 'node:path';
import { parseRequest, type HostEvent } from '../../shared/api.js';
import { HostSession } from './session.js';
import type { TeamHost, TeamHostOptions } from './team-host.js';

/**
 * Holds the open workspace's TeamHost and lets views switch workspace: the old host is closed (its ptys
 * stopped) and every connected view is re-bound to the new one.
 */
export class HostManager {
  private connections = new Set<Connection>();
  private switching: Promise<void> = Promise.resolve();

  constructor(
    private current: TeamHost,
    private readonly make: (opts: TeamHostOptions) => TeamHost,
  ) {}

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
    const next = this.make({ ...this.current.opts, workspace: path.resolve(dir) });
    this.switching = this.switching.then(async () => {
      await this.current.close();
      await next.open();
      this.current = next;
      for (const c of this.connections) c.rebind();
    });
    await this.switching;
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.close();
    await this.current.close();
  }
}

/** One view's connection; requests go to the current host's session. */
export class Connection {
  private session: HostSession;

  constructor(
    private readonly manager: HostManager,
    private readonly out: (event: HostEvent) => void,
  ) {
    this.session = new HostSession(manager.host, out);
  }

  async handle(raw: unknown): Promise<void> {
    const parsed = parseRequest(raw);
    if (parsed.ok && parsed.request.type === 'open_workspace') {
      const id = parsed.request.id;
      try {
        await this.manager.open(parsed.request.dir);
        this.out({ type: 'reply', id, ok: true });
      } catch (err) {
        this.out({ type: 'reply', id, ok: false, error: (err as Error).message.split('\n')[0]! });
      }
      return;
    }
    await this.session.handle(raw);
  }

  rebind(): void {
    this.session.close();
    this.session = new HostSession(this.manager.host, this.out);
    this.manager.host.snapshot(this.session);
  }

  close(): void {
    this.session.close();
    this.manager.forget(this);
  }
}
