import { describe, expect, it } from 'vitest';
import { table } from '../../cli/team/common.js';
import { MemberSpecSchema } from '../../contract/api.js';
import { ConfigSchema } from '../../contract/store-schemas.js';
import { modelNameProblem, ModelNameSchema, printable } from '../../contract/model-name.js';
import { SettingsSchema } from '../../contract/settings-schema.js';
import { teamTools } from '../teams/tools/team-tools.js';
import type { TeamSession } from '../teams/session.js';

const forged = 'local/q\u001b]0;PWNED\u0007\u001b[2J\nbob     -     working  #1';

describe('model names: one schema at every boundary, and terminal text that cannot act', () => {
  it('accepts the ids people use; refuses escapes, newlines, spaces, empty and overlong ids', () => {
    for (const ok of ['sonnet', 'claude-sonnet-4-5@20250929', 'local/qwen3-coder:32b', 'or/meta-llama/Llama-3.1-8B-Instruct', 'ollama/hf.co/u/repo:Q4_K_M']) expect(modelNameProblem(ok), ok).toBeNull();
    for (const bad of [forged, 'a b', '', '/x', 'x\n', 'x'.repeat(201)]) expect(ModelNameSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(modelNameProblem('a\u001b[2Jb')).toBe('invalid model "a\\u001b[2Jb": a model id: letters, digits and . _ : / @ + = ~ -, no spaces, at most 200 characters');
  });

  it('TeamCreate, SpawnTeammate, settings and the dashboard refuse a bad id; a hand-edited config reads it as none, never raw', () => {
    expect(SettingsSchema.safeParse({ roleModels: { API: forged } }).success).toBe(false);
    expect(SettingsSchema.safeParse({ model: forged }).success).toBe(false);
    expect(MemberSpecSchema.safeParse({ model: forged }).success).toBe(false);
    const tools = teamTools({} as TeamSession);
    const schema = (n: 'TeamCreate' | 'SpawnTeammate') => (n === 'TeamCreate' ? tools.create : tools.spawn).inputSchema;
    expect(schema('TeamCreate').safeParse({ name: 't', agents: [{ name: 'bob', model: forged }] }).success).toBe(false);
    expect(schema('TeamCreate').safeParse({ name: 't', agents: [{ name: 'bob', model: 'local/m' }] }).success).toBe(true);
    expect(schema('SpawnTeammate').safeParse({ name: 'bob', model: forged }).success).toBe(false);
    const cfg = ConfigSchema.parse({ name: 't', created_at: 1, members: [{ name: 'alice', model: forged }, { name: 'bob', model: 'local/m' }] });
    expect(cfg.members.map((m) => m.model)).toEqual([null, 'local/m']);
  });

  it('team status cells show control characters as \\xNN: no title change, no clear screen, no forged row', () => {
    const out = table([['MEMBER', 'ROLE'], ['alice', 'dev\u001b]0;PWNED\u0007\nbob  working']]);
    expect(out).toBe('MEMBER  ROLE\nalice   dev\\x1b]0;PWNED\\x07\\x0abob  working');
    expect(printable('plain/model:1')).toBe('plain/model:1');
  });
});
