/**
 * `thclaws mcp list`: the MCP servers an agent started here would get (settings, a trusted `.mcp.json`,
 * `--mcp-config`), each connected once to show its state and tools, as `claude mcp list` does.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { CliError } from './errors.js';

interface ListOptions {
  cwd?: string;
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
}

async function list(opts: ListOptions): Promise<number> {
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  const { loadSettings, SettingsError } = await import('../core/agent/settings.js');
  const { McpConfigError, parseMcpConfigArg, readMcpJson, resolveMcpServers, mcpJsonPath } = await import('../core/agent/mcp/config.js');
  const { McpServers } = await import('../core/agent/mcp/servers.js');
  const { isTrusted } = await import('../core/agent/trust.js');
  const { VERSION } = await import('./version.js');
  let servers;
  const notes: string[] = [];
  try {
    const { settings } = loadSettings(cwd);
    const trusted = isTrusted(cwd);
    const project = readMcpJson(cwd);
    if (project && !trusted && !opts.strictMcpConfig) notes.push(`${mcpJsonPath(cwd)}: ignored (${Object.keys(project).join(', ') || 'no servers'}): ${cwd} is not a trusted folder`);
    servers = resolveMcpServers({
      settings: settings.mcpServers,
      project: trusted ? project : undefined,
      cli: (opts.mcpConfig ?? []).map((v) => parseMcpConfigArg(v, cwd)),
      ...(opts.strictMcpConfig ? { strict: true } : {}),
    });
  } catch (err) {
    if (err instanceof McpConfigError || err instanceof SettingsError) throw new CliError(err.message);
    throw err;
  }
  for (const n of notes) process.stdout.write(`${n}\n`);
  if (!servers.length) {
    process.stdout.write('No MCP servers configured (settings "mcpServers", .mcp.json, --mcp-config).\n');
    return 0;
  }
  const mcp = new McpServers(cwd, VERSION);
  try {
    await mcp.connect(servers);
    for (const s of mcp.status()) {
      const where = s.config.type === 'stdio' ? [s.config.command, ...(s.config.args ?? [])].join(' ') : `${s.config.url} (${s.config.type})`;
      const state = s.status === 'connected' ? `✓ connected, ${s.tools.length} tools: ${s.tools.map((t) => t.name).join(', ')}` : `✗ ${s.status}: ${s.error ?? ''}`;
      process.stdout.write(`${s.name} [${s.scope}]: ${where} - ${state}\n`);
    }
  } finally {
    await mcp.close();
  }
  return 0;
}

export function registerMcpCommand(program: Command): void {
  const mcp = program.command('mcp').description('MCP servers: list what an agent started here gets');
  mcp
    .command('list')
    .description('each configured MCP server, where it comes from, whether it connects, and its tools')
    .option('--cwd <dir>', 'project folder (default: the current one)')
    .option('--mcp-config <config>', 'add servers from a JSON file or string; repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--strict-mcp-config', 'only the --mcp-config servers')
    .action(async (o: ListOptions) => {
      process.exitCode = await list(o);
    });
}
