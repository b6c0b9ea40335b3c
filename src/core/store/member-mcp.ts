/**
 * The lead's MCP servers handed to one teammate at spawn (`agents/<name>/mcp.json`): the servers the lead was
 * given on its command line or by the Agent SDK, which the teammate's own settings and `.mcp.json` don't
 * have. Owner-only (a server's env or headers may hold a token), never in argv. A corrupt file is
 * quarantined and reads as none.
 */
import fs from 'node:fs';
import path from 'node:path';
import { McpConfigFile, type McpServers } from '../../contract/mcp-config.js';
import { parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { assertAgentName } from './names.js';
import type { TeamPaths } from './paths.js';
import { describeIssues } from '../../contract/store-schemas.js';

export class MemberMcp {
  constructor(
    private readonly paths: TeamPaths,
    private readonly journal: Journal,
  ) {}

  file(agent: string): string {
    return path.join(this.paths.agentDir(assertAgentName(agent)), 'mcp.json');
  }

  /** Replaces the teammate's servers; none removes the file (a respawn must not keep an older lead's). */
  write(agent: string, servers: McpServers): void {
    const file = this.file(agent);
    if (!Object.keys(servers).length) {
      fs.rmSync(file, { force: true });
      return;
    }
    writeFileAtomic(file, JSON.stringify({ mcpServers: servers }, null, 2), { mode: 0o600 });
  }

  /** The servers the lead handed this teammate; none when there is no file or it is corrupt (quarantined). */
  read(agent: string): McpServers {
    const file = this.file(agent);
    const r = readTextFile(file);
    if (r.kind === 'missing') return {};
    const parsed = r.kind === 'ok' ? parseJson(r.text) : { ok: false as const, reason: r.reason };
    if (!parsed.ok) {
      this.journal.quarantine(file, parsed.reason);
      return {};
    }
    const res = McpConfigFile.safeParse(parsed.value);
    if (!res.success) {
      this.journal.quarantine(file, describeIssues(res.error));
      return {};
    }
    return res.data.mcpServers;
  }
}
