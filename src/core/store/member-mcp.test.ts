import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamStore } from './index.js';

let ws: string;
let store: TeamStore;
beforeEach(() => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-member-mcp-'));
  store = TeamStore.forWorkspace(ws, {});
  store.init();
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

describe("a teammate's MCP servers from its lead", () => {
  it('round-trips owner-only; none removes the file; a corrupt file is quarantined and reads as none; a bad name never reaches a path', () => {
    const servers = { lead: { command: 'node', args: ['srv.mjs'], env: { TOKEN: '${LEAD_TOKEN}' } } };
    store.memberMcp.write('alice', servers);
    const file = store.memberMcp.file('alice');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(store.memberMcp.read('alice')).toEqual(servers);
    store.memberMcp.write('alice', {});
    expect(fs.existsSync(file)).toBe(false);
    expect(store.memberMcp.read('alice')).toEqual({});

    fs.writeFileSync(file, '{"mcpServers": {"x": {"type": "http", "url": "ftp://no"}}}');
    expect(store.memberMcp.read('alice')).toEqual({});
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.startsWith('mcp.json.corrupt-'))).toHaveLength(1);
    expect(() => store.memberMcp.write('../evil', servers)).toThrow(/name/);
  });
});
