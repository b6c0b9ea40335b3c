/**
 * Where MCP servers come from, lowest precedence first (a later source replaces a server of the same name):
 * settings (`mcpServers` of the user's, and of a trusted project's, settings files), the project's
 * `.mcp.json` (only in a trusted folder: its servers are commands of the repository's choosing),
 * `--mcp-config` (files or JSON strings), then the Agent SDK's `mcpServers` (added by `initialize`).
 * `--strict-mcp-config` keeps only the `--mcp-config` servers. `${VAR}` and `${VAR:-default}` expand from the
 * environment in command, args, env, url and headers, as in Claude Code.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { McpConfigFile, type McpServerConfig, type McpServers } from '../../../contract/mcp-config.js';

export class McpConfigError extends Error {
  override name = 'McpConfigError';
}

export type McpScope = 'settings' | 'project' | 'cli' | 'sdk';

export interface ResolvedMcpServer {
  name: string;
  config: McpServerConfig;
  scope: McpScope;
}

export function mcpJsonPath(projectRoot: string): string {
  return path.join(projectRoot, '.mcp.json');
}

function expand(value: string, env: NodeJS.ProcessEnv, where: string): string {
  return value.replace(/\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}/g, (_m, name: string, dflt: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (dflt !== undefined) return dflt;
    throw new McpConfigError(`${where}: \${${name}} is not set in the environment`);
  });
}

function expandRecord(r: Record<string, string> | undefined, env: NodeJS.ProcessEnv, where: string): Record<string, string> | undefined {
  return r && Object.fromEntries(Object.entries(r).map(([k, v]) => [k, expand(v, env, where)]));
}

/** A server's config with `${VAR}`s filled in from `env`. */
export function expandConfig(name: string, c: McpServerConfig, env: NodeJS.ProcessEnv = process.env): McpServerConfig {
  const where = `MCP server "${name}"`;
  if (c.type === 'http' || c.type === 'sse') {
    const headers = expandRecord(c.headers, env, where);
    return { ...c, url: expand(c.url, env, where), ...(headers ? { headers } : {}) };
  }
  const s = c as Extract<McpServerConfig, { command: string }>;
  const envVars = expandRecord(s.env, env, where);
  return { ...s, command: expand(s.command, env, where), ...(s.args ? { args: s.args.map((a) => expand(a, env, where)) } : {}), ...(envVars ? { env: envVars } : {}) };
}

function parseServers(text: string, what: string): McpServers {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new McpConfigError(`${what}: invalid JSON: ${(err as Error).message}`);
  }
  const res = McpConfigFile.safeParse(raw);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    throw new McpConfigError(`${what}: key "${issue.path.join('.') || '(root)'}": ${issue.message}`);
  }
  return res.data.mcpServers;
}

/** The project's `.mcp.json`, or undefined when there is none. */
export function readMcpJson(projectRoot: string): McpServers | undefined {
  const file = mcpJsonPath(projectRoot);
  if (!existsSync(file)) return undefined;
  return parseServers(readFileSync(file, 'utf8'), file);
}

/** One `--mcp-config` value: a JSON object, or a file holding one. */
export function parseMcpConfigArg(value: string, cwd: string): McpServers {
  const v = value.trim();
  if (v.startsWith('{')) return parseServers(v, '--mcp-config');
  const file = path.resolve(cwd, v);
  if (!existsSync(file)) throw new McpConfigError(`--mcp-config: no such file: ${v}`);
  return parseServers(readFileSync(file, 'utf8'), `--mcp-config ${v}`);
}

/** The Agent SDK's `mcpServers` from `initialize` (in-process `sdk` servers are refused by the caller). */
export function parseSdkServers(raw: unknown): McpServers {
  const res = McpConfigFile.shape.mcpServers.safeParse(raw);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    throw new McpConfigError(`initialize: mcpServers.${issue.path.join('.')}: ${issue.message}`);
  }
  return res.data;
}

export interface McpSources {
  settings: McpServers;
  /** `.mcp.json`, already checked against folder trust by the caller (undefined: none or untrusted). */
  project?: McpServers | undefined;
  cli?: McpServers[];
  strict?: boolean;
}

export function resolveMcpServers(src: McpSources): ResolvedMcpServer[] {
  const out = new Map<string, ResolvedMcpServer>();
  const add = (servers: McpServers | undefined, scope: McpScope) => {
    for (const [name, config] of Object.entries(servers ?? {})) out.set(name, { name, config, scope });
  };
  if (!src.strict) {
    add(src.settings, 'settings');
    add(src.project, 'project');
  }
  for (const c of src.cli ?? []) add(c, 'cli');
  return [...out.values()];
}

/** A member's `mcpServers` list (agent definition front-matter) narrows the servers it gets; none given = all. */
export function serversForMember(all: ResolvedMcpServer[], only: readonly string[] | undefined): ResolvedMcpServer[] {
  return only ? all.filter((s) => only.includes(s.name)) : all;
}
