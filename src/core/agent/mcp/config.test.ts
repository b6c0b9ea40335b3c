import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/agent/helpers.js';
import { parseAgentDef } from '../agent-defs.js';
import { classify } from '../permission-rules.js';
import { expandConfig, McpConfigError, parseMcpConfigArg, readMcpJson, resolveMcpServers, serversForMember } from './config.js';
import { mcpResultText, mcpToolName } from './servers.js';

const stdio = (command: string) => ({ command });

describe('MCP configs: sources, precedence, expansion, names and rules', () => {
  it('later sources replace a server of the same name; --strict-mcp-config keeps only --mcp-config', () => {
    const src = { settings: { a: stdio('s'), b: stdio('s') }, project: { b: stdio('p'), c: stdio('p') }, cli: [{ c: stdio('c') }] };
    expect(resolveMcpServers(src).map((s) => `${s.name}:${s.scope}:${(s.config as { command: string }).command}`)).toEqual(['a:settings:s', 'b:project:p', 'c:cli:c']);
    expect(resolveMcpServers({ ...src, strict: true }).map((s) => s.name)).toEqual(['c']);
    expect(serversForMember(resolveMcpServers(src), ['a']).map((s) => s.name)).toEqual(['a']);
    expect(serversForMember(resolveMcpServers(src), undefined)).toHaveLength(3);
  });

  it('${VAR} and ${VAR:-default} expand; an unset variable without a default is an error naming the server', () => {
    const c = expandConfig('x', { command: '${BIN}', args: ['--k=${KEY:-none}'], env: { T: '${TOKEN}' } }, { BIN: '/bin/srv', TOKEN: 't' });
    expect(c).toMatchObject({ command: '/bin/srv', args: ['--k=none'], env: { T: 't' } });
    expect(() => expandConfig('x', { type: 'http', url: 'https://h/${MISSING}' }, {})).toThrow(/MCP server "x": \$\{MISSING\} is not set/);
  });

  it('a bad file or JSON names where and which key; a server name that could not be a tool name is refused', () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { 'bad name': stdio('x') } }));
      expect(() => readMcpJson(dir)).toThrow(McpConfigError);
      expect(() => readMcpJson(dir)).toThrow(/\.mcp\.json: key "mcpServers.bad name"/);
      expect(() => parseMcpConfigArg('{not json', dir)).toThrow(/^--mcp-config: invalid JSON/);
      expect(() => parseMcpConfigArg('missing.json', dir)).toThrow('--mcp-config: no such file: missing.json');
    } finally {
      cleanup();
    }
  });

  it('tool names as Claude Code spells them; rules name one tool or a whole server (mcp__srv, mcp__srv__*), never another server', () => {
    expect(mcpToolName('my.srv', 'do it')).toBe('mcp__my_srv__do_it');
    const scope = { cwd: '/w', projectRoot: '/w' };
    const req = { tool: 'mcp__gh__create_issue', input: {}, summary: '' };
    expect(classify(req, scope, { allow: ['mcp__gh'] })?.kind).toBe('allow');
    expect(classify(req, scope, { allow: ['mcp__gh__*'] })?.kind).toBe('allow');
    expect(classify(req, scope, { deny: ['mcp__gh__create_issue'], allow: ['mcp__gh'] })?.kind).toBe('deny');
    expect(classify(req, scope, { allow: ['mcp__g', 'mcp__gh__create', 'mcp__ghx'] })).toBeUndefined();
  });

  it('call results become text (images described); a member definition narrows its servers', () => {
    expect(mcpResultText({ content: [{ type: 'text', text: 'a' }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }], isError: true })).toEqual({ content: 'a\n[image image/png, 3 bytes]', isError: true });
    expect(mcpResultText({ structuredContent: { n: 1 } }).content).toBe('{"n":1}');
    expect(parseAgentDef('---\nmcpServers: github, docs\n---\nhi', 'a.md').mcpServers).toEqual(['github', 'docs']);
    expect(parseAgentDef('---\nmcpServers: []\n---\nhi', 'a.md').mcpServers).toEqual([]);
  });
});
