/**
 * The workspace picker's "Claude Code teams" entry in a thclaws dashboard: a view that opens `claude-code:…`
 * is moved from the workspace's source (HostManager or RemoteViews) to the Claude Code source, and back when
 * it opens a folder again; its subscription and terminals follow it. Nothing else of either source changes.
 */
import type { ViewLink } from '../daemon/remote-views.js';
import { readViewEvent, viewEventType, type ViewEvent } from '../daemon/view-event.js';
import { CLAUDE_CODE_DIR } from './to-api.js';

export interface ViewSource {
  connect(out: (event: ViewEvent) => void, gone?: () => void, opts?: { noStart?: boolean }): ViewLink;
}

const field = (raw: unknown, key: string): unknown => (typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[key] : undefined);

export function withClaudeCode(inner: ViewSource, claude: ViewSource): ViewSource {
  return {
    connect(out, gone, opts) {
      let onClaude = false;
      let subscribed = false;
      /** The folders the view came from: the Claude Code view's picker offers them to go back. */
      let folders: string[] = [];
      const attached = { inner: new Map<string, unknown>(), claude: new Map<string, unknown>() };
      const fromInner = (e: ViewEvent) => {
        if (!onClaude && viewEventType(e) === 'workspace') {
          const w = readViewEvent(e);
          if (w?.type === 'workspace' && !w.workspace.claude_code) folders = [w.workspace.dir, ...w.workspace.recent.filter((d) => d !== w.workspace.dir)].slice(0, 20);
        }
        if (!onClaude) out(e);
      };
      const fromClaude = (e: ViewEvent) => {
        if (!onClaude) return;
        if (typeof e !== 'string' && e.type === 'workspace') out({ ...e, workspace: { ...e.workspace, recent: folders } });
        else out(e);
      };
      let link = inner.connect(fromInner, gone, opts);
      const move = (toClaude: boolean) => {
        link.close();
        onClaude = toClaude;
        link = toClaude ? claude.connect(fromClaude, gone) : inner.connect(fromInner, gone);
        if (subscribed) void link.handle({ id: 0, type: 'subscribe' });
        for (const a of (toClaude ? attached.claude : attached.inner).values()) void link.handle(a);
      };
      return {
        handle: async (raw) => {
          const type = field(raw, 'type');
          const agent = field(raw, 'agent');
          if (type === 'subscribe') subscribed = true;
          const mine = onClaude ? attached.claude : attached.inner;
          if (type === 'attach' && typeof agent === 'string') mine.set(agent, { ...(raw as object), id: 0 });
          if (type === 'detach' && typeof agent === 'string') mine.delete(agent);
          if (type === 'open_workspace') {
            const dir = field(raw, 'dir');
            const claudeDir = typeof dir === 'string' && dir.startsWith(CLAUDE_CODE_DIR);
            if (claudeDir !== onClaude) move(claudeDir);
          }
          return link.handle(raw);
        },
        close: () => link.close(),
      };
    },
  };
}
