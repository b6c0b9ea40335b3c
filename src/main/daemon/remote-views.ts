import { parseRequest, type HostEvent } from '../../shared/api.js';
import { connectOrStartHost, type HostConnection } from './host-client.js';

/** One view's link to the workspace's host, as the web server sees it (the same shape as an in-process one). */
export interface ViewLink {
  handle(raw: unknown): Promise<void>;
  close(): void;
}

/**
 * Views served by a dashboard that is a client of the workspace's host: each view gets its own connection
 * to the host (so the host's per-view flow control and sizes still hold), opened when the view connects.
 * Requests are validated here too, so a bad one is answered without a trip to the host.
 */
export class RemoteViews {
  constructor(
    private readonly workspace: string,
    private readonly hostArgv: string[],
    private readonly env?: NodeJS.ProcessEnv,
  ) {}

  /** Connects once (starting the host when none runs): the dashboard fails early when the host cannot start. */
  async probe(): Promise<number> {
    const c = await this.link();
    c.close();
    return c.pid;
  }

  private link(): Promise<HostConnection> {
    return connectOrStartHost(this.workspace, this.hostArgv, { client: 'dashboard', env: this.env });
  }

  /** `lost`: the host connection closed under the view (the host died or stopped), not by the view. */
  connect(out: (event: HostEvent) => void, lost?: () => void): ViewLink {
    let closed = false;
    const pending: unknown[] = [];
    let conn: HostConnection | null = null;
    const ready = this.link().then(
      (c) => {
        if (closed) return c.close();
        conn = c;
        c.onEvent(out);
        c.onClose(() => {
          if (closed) return;
          out({ type: 'notice', level: 'warn', text: 'the workspace host stopped; reconnecting (a new host reads the team from disk)' });
          lost?.();
        });
        for (const r of pending.splice(0)) c.send(r);
      },
      (err: Error) => out({ type: 'notice', level: 'error', text: `cannot reach the workspace host: ${err.message.split('\n')[0]!}` }),
    );
    void ready;
    return {
      handle: async (raw) => {
        const parsed = parseRequest(raw);
        if (!parsed.ok) return out({ type: 'reply', id: parsed.id, ok: false, error: parsed.error });
        if (conn) conn.send(parsed.request);
        else pending.push(parsed.request);
      },
      close: () => {
        closed = true;
        conn?.close();
      },
    };
  }
}
