/**
 * Connected MCP servers (@modelcontextprotocol/sdk's client) and their tools as ours: `mcp__<server>__<tool>`,
 * needing permission like Write and Bash (the same rules, hooks, approver and plan-mode lock apply), their
 * input schema passed to the model as the server wrote it and validated by the server. A server that fails
 * to start is reported (status `failed`, one line on stderr) and the session goes on without it.
 */
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool, ToolResult } from '../types.js';
import type { McpServerConfig } from '../../../contract/mcp-config.js';
import { expandConfig, type McpScope, type ResolvedMcpServer } from './config.js';

export type McpStatus = 'connected' | 'failed' | 'pending';

export interface McpServerState {
  name: string;
  scope: McpScope;
  config: McpServerConfig;
  status: McpStatus;
  error?: string;
  serverInfo?: { name: string; version: string };
  tools: Tool<any>[];
  client?: Client;
  pid?: number | null;
}

const CONNECT_TIMEOUT_MS = Number(process.env.MCP_TIMEOUT) || 30_000;
/** Claude Code's default per-call limit (MCP_TOOL_TIMEOUT), far above any sane tool. */
const CALL_TIMEOUT_MS = Number(process.env.MCP_TOOL_TIMEOUT) || 100_000_000;
const STDERR_TAIL = 2000;

/** Claude Code's tool-name spelling: characters outside the API's set become `_`. */
export function mcpToolName(server: string, tool: string): string {
  const norm = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  return `mcp__${norm(server)}__${norm(tool)}`.slice(0, 128);
}

interface McpContent {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** A call's result as the text the model reads (our tool results are text). */
export function mcpResultText(r: { content?: McpContent[]; structuredContent?: unknown; isError?: boolean }): ToolResult {
  const parts = (r.content ?? []).map((c) => {
    if (c.type === 'text') return c.text ?? '';
    if (c.type === 'resource') return c.resource?.text ?? `[resource ${c.resource?.uri ?? ''}]`;
    if (c.type === 'image' || c.type === 'audio') return `[${c.type} ${c.mimeType ?? ''}, ${Math.floor(((c.data?.length ?? 0) * 3) / 4)} bytes]`;
    return `[${c.type}]`;
  });
  if (!parts.length && r.structuredContent !== undefined) parts.push(JSON.stringify(r.structuredContent));
  return { content: parts.join('\n') || '(no output)', ...(r.isError ? { isError: true } : {}) };
}

function toolFor(state: McpServerState, client: Client, t: { name: string; description?: string; inputSchema: Record<string, unknown>; annotations?: { readOnlyHint?: boolean } }): Tool<Record<string, unknown>> {
  const timeout = state.config.timeout ?? CALL_TIMEOUT_MS;
  return {
    name: mcpToolName(state.name, t.name),
    description: t.description ?? `${t.name} (MCP server ${state.name})`,
    inputSchema: z.record(z.string(), z.unknown()),
    inputJsonSchema: { type: 'object', ...t.inputSchema },
    needsPermission: true,
    ...(t.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
    summarize: (input) => JSON.stringify(input).slice(0, 200),
    run: async (input, ctx) => {
      if (state.status !== 'connected') return { content: `MCP server "${state.name}" is not connected: ${state.error ?? state.status}`, isError: true };
      const r = await client.callTool({ name: t.name, arguments: input }, undefined, { signal: ctx.signal, timeout });
      return mcpResultText(r as Parameters<typeof mcpResultText>[0]);
    },
  };
}

async function transportFor(config: McpServerConfig, cwd: string, tail: { text: string }) {
  if (config.type === 'http') {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers ?? {} } });
  }
  if (config.type === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    return new SSEClientTransport(new URL(config.url), { requestInit: { headers: config.headers ?? {} } });
  }
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const s = config as Extract<McpServerConfig, { command: string }>;
  // As Claude Code: the server gets our environment plus its own `env`; its stderr is kept for the error line.
  const env = { ...(process.env as Record<string, string>), ...s.env };
  const t = new StdioClientTransport({ command: s.command, args: s.args ?? [], env, cwd, stderr: 'pipe' });
  t.stderr?.on('data', (d: Buffer) => (tail.text = (tail.text + d.toString()).slice(-STDERR_TAIL)));
  return t;
}

export class McpServers {
  readonly servers = new Map<string, McpServerState>();

  constructor(
    private readonly cwd: string,
    private readonly clientVersion: string,
  ) {}

  /** Connects these servers (in parallel, replacing any of the same name); returns the tools they add. */
  async connect(list: ResolvedMcpServer[], onError: (line: string) => void = () => {}): Promise<Tool<any>[]> {
    const states = list.map((s) => {
      void this.servers.get(s.name)?.client?.close().catch(() => {});
      const state: McpServerState = { name: s.name, scope: s.scope, config: s.config, status: 'pending', tools: [] };
      this.servers.set(s.name, state);
      return state;
    });
    await Promise.all(states.map((st) => this.connectOne(st, onError)));
    return states.flatMap((s) => s.tools);
  }

  private async connectOne(state: McpServerState, onError: (line: string) => void): Promise<void> {
    const tail = { text: '' };
    let client: Client | undefined;
    try {
      const config = expandConfig(state.name, state.config);
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      client = new Client({ name: 'thclaws', version: this.clientVersion });
      const transport = await transportFor(config, this.cwd, tail);
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      state.pid = (transport as { pid?: number | null }).pid ?? null;
      const tools: Parameters<typeof toolFor>[2][] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: CONNECT_TIMEOUT_MS });
        tools.push(...(page.tools as Parameters<typeof toolFor>[2][]));
        cursor = page.nextCursor;
      } while (cursor);
      const info = client.getServerVersion();
      state.client = client;
      state.tools = tools.map((t) => toolFor(state, client!, t));
      state.status = 'connected';
      if (info) state.serverInfo = { name: info.name, version: info.version };
      client.onclose = () => {
        state.status = 'failed';
        state.error = `the server closed the connection${tail.text.trim() ? `: ${lastLine(tail.text)}` : ''}`;
      };
    } catch (err) {
      state.status = 'failed';
      state.error = `${(err as Error).message.split('\n')[0]}${tail.text.trim() ? ` (stderr: ${lastLine(tail.text)})` : ''}`;
      void client?.close().catch(() => {});
      onError(`MCP server "${state.name}" failed to start: ${state.error}`);
    }
  }

  tools(): Tool<any>[] {
    return [...this.servers.values()].flatMap((s) => s.tools);
  }

  /** The Agent SDK's `McpServerStatus[]`. */
  status() {
    return [...this.servers.values()].map((s) => ({
      name: s.name,
      status: s.status,
      ...(s.serverInfo ? { serverInfo: s.serverInfo } : {}),
      ...(s.error ? { error: s.error } : {}),
      config: s.config.type === 'http' || s.config.type === 'sse' ? { type: s.config.type, url: s.config.url } : { type: 'stdio', command: (s.config as { command: string }).command, args: (s.config as { args?: string[] }).args ?? [] },
      scope: s.scope,
      tools: s.tools.map((t) => ({ name: t.name, description: t.description, ...(t.readOnly ? { annotations: { readOnly: true } } : {}) })),
    }));
  }

  /** Stdio servers die with us: a synchronous kill for the 'exit' handler, where nothing can be awaited. */
  killSync(): void {
    for (const s of this.servers.values()) {
      if (!s.pid) continue;
      try {
        process.kill(s.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.client?.close().catch(() => {})));
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)!.slice(0, 300);
}
