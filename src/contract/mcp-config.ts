/**
 * MCP server configurations as Claude Code writes them (`.mcp.json`, `--mcp-config`, the Agent SDK's
 * `mcpServers`): a stdio server (a command) or a remote one (streamable HTTP, or legacy SSE). zod only: the
 * settings schema (shared with the dashboard) embeds it.
 */
import { z } from 'zod';

/** Server names become part of tool names (`mcp__<server>__<tool>`), which the API limits to these characters. */
export const MCP_SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const Strings = z.record(z.string(), z.string().max(100_000));

export const McpStdioConfig = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1).max(4096),
  args: z.array(z.string().max(100_000)).max(1000).optional(),
  env: Strings.optional(),
  /** Per-call timeout in ms (Claude Code's `timeout`). */
  timeout: z.number().int().min(1000).optional(),
});

export const McpRemoteConfig = z.looseObject({
  type: z.enum(['http', 'sse']),
  url: z.string().regex(/^https?:\/\/\S+$/, 'an http:// or https:// URL'),
  headers: Strings.optional(),
  timeout: z.number().int().min(1000).optional(),
});

export const McpServerConfig = z.union([McpStdioConfig, McpRemoteConfig]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

export const McpServers = z.record(z.string().regex(MCP_SERVER_NAME, 'a server name is letters, digits, "_" or "-" (1-64)'), McpServerConfig);
export type McpServers = z.infer<typeof McpServers>;

/** `.mcp.json` and each `--mcp-config`: `{ "mcpServers": { name: config } }`. */
export const McpConfigFile = z.looseObject({ mcpServers: McpServers.default({}) });
