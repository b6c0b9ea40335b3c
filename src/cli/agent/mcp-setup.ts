/**
 * The MCP servers of one agent: settings, the project's `.mcp.json` (trusted folders only), `--mcp-config`,
 * narrowed by a member's `mcpServers` list; connected before the first turn. The Agent SDK's own servers come
 * later, in `initialize` (`addSdkServers`). A config error is a CLI error (exit 2); a server that does not
 * start is one stderr line and the session goes on without it.
 */
import { existsSync } from 'node:fs';
import type { McpServers as McpServerConfigs } from '../../contract/mcp-config.js';
import { McpConfigError, mcpJsonPath, parseMcpConfigArg, parseSdkServers, readMcpJson, resolveMcpServers, serversForMember } from '../../core/agent/mcp/config.js';
import { McpServers } from '../../core/agent/mcp/servers.js';
import { toolNameMatches } from '../../core/agent/permission-rules.js';
import { isTrusted } from '../../core/agent/trust.js';
import type { Tool } from '../../core/agent/types.js';
import { CliError } from '../errors.js';
import { VERSION } from '../version.js';
import { agentHooks, type RuntimeInfo } from './hooks.js';
import { activeTeamSession } from './team-hooks.js';
import type { AgentCliOptions } from './options.js';

const warn = (line: string) => process.stderr.write(`thclaws: ${line}\n`);

/** `.mcp.json` of an untrusted folder, as the trust question lists what it ignores. */
export function untrustedMcpJson(projectRoot: string): string[] {
  return existsSync(mcpJsonPath(projectRoot)) && !isTrusted(projectRoot) ? [`${mcpJsonPath(projectRoot)}: mcpServers`] : [];
}

/** Tools a bare `--disallowedTools` name hides (a tool, or every tool of `mcp__server`). */
export function hiddenBy(rules: readonly string[] | undefined): (tool: Tool<any>) => boolean {
  const bare = (rules ?? []).filter((r) => !r.includes('('));
  return (t) => bare.some((r) => toolNameMatches(r, t.name));
}

/**
 * The servers this process was given on its command line or by the Agent SDK: a teammate it spawns gets them
 * too (its settings and `.mcp.json` it reads itself), through the team store.
 */
const handedDown: McpServerConfigs = {};

export function serversForTeammates(): McpServerConfigs {
  return { ...handedDown };
}

export async function setupMcp(opts: AgentCliOptions, info: RuntimeInfo, memberServers: readonly string[] | undefined): Promise<{ mcp: McpServers; tools: Tool<any>[] }> {
  const mcp = new McpServers(info.cwd, VERSION);
  let list;
  try {
    const trusted = isTrusted(info.projectRoot);
    const team = activeTeamSession();
    // A teammate's lead handed down its own --mcp-config / SDK servers at spawn; a member's list narrows them below.
    const fromLead = info.agentName && team ? team.team.memberMcp.read(info.agentName) : {};
    list = resolveMcpServers({
      settings: info.settings.mcpServers,
      // `.mcp.json` is the project source of servers, as in Claude Code (--setting-sources without project skips it).
      project: trusted && (!opts.settingSources || opts.settingSources.includes('project')) ? readMcpJson(info.projectRoot) : undefined,
      cli: [fromLead, ...(opts.mcpConfig ?? []).map((v) => parseMcpConfigArg(v, info.cwd))],
      ...(opts.strictMcpConfig ? { strict: true } : {}),
    });
  } catch (err) {
    if (err instanceof McpConfigError) throw new CliError(err.message);
    throw err;
  }
  for (const s of list) if (s.scope === 'cli') handedDown[s.name] = s.config;
  list = serversForMember(list, memberServers);
  if (!list.length) return { mcp, tools: [] };
  process.once('exit', () => mcp.killSync());
  const tools = await mcp.connect(list, warn);
  return { mcp, tools };
}

/**
 * The Agent SDK's `mcpServers` from `initialize`: connected, wrapped like every other tool (hooks, plan mode)
 * and added to the running agent's tools. Returns an error line, or undefined when applied.
 */
export async function addSdkServers(mcp: McpServers, info: RuntimeInfo, tools: Tool<any>[], raw: unknown, disallowed: readonly string[] | undefined): Promise<string | undefined> {
  let servers;
  try {
    servers = parseSdkServers(raw);
  } catch (err) {
    return (err as Error).message;
  }
  const list = Object.entries(servers).map(([name, config]) => ({ name, config, scope: 'sdk' as const }));
  if (!list.length) return undefined;
  Object.assign(handedDown, servers);
  process.once('exit', () => mcp.killSync());
  const hidden = hiddenBy(disallowed);
  const added = (await mcp.connect(list, warn)).filter((t) => !hidden(t));
  const names = new Set(added.map((t) => t.name));
  // A server given again replaces its tools.
  for (let i = tools.length - 1; i >= 0; i--) if (names.has(tools[i]!.name)) tools.splice(i, 1);
  for (const h of agentHooks) h.wrapTools?.(added, info);
  tools.push(...added);
  return undefined;
}
