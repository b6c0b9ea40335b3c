/**
 * Agent definitions: `.thclaws/agents/*.md`, YAML front-matter (name, description, model, tools, isolation)
 * and a body of instructions. SpawnTeammate uses them to give a teammate its role.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ModelNameSchema } from '../../contract/model-name.js';

const FrontMatter = z.looseObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'letters, digits, "_" or "-", 1-64 characters').optional(),
  description: z.string().optional(),
  model: ModelNameSchema.optional(),
  /** A YAML list or a comma-separated string of tool names. */
  tools: z.union([z.array(z.string().min(1)), z.string()]).optional(),
  isolation: z.enum(['none', 'worktree']).optional(),
  /** The MCP servers this member gets, by name (a list or a comma-separated string); absent = all the lead's. */
  mcpServers: z.union([z.array(z.string().min(1)), z.string()]).optional(),
});

export interface AgentDef {
  name: string;
  description: string;
  model?: string;
  /** Undefined = all tools. */
  tools?: string[];
  isolation: 'none' | 'worktree';
  /** Undefined = every MCP server the lead has. */
  mcpServers?: string[];
  instructions: string;
  file: string;
}

export class AgentDefError extends Error {
  override name = 'AgentDefError';
}

const FM_RE = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseAgentDef(text: string, file: string): AgentDef {
  const m = FM_RE.exec(text);
  let raw: unknown = {};
  if (m) {
    try {
      raw = parseYaml(m[1]!) ?? {};
    } catch (err) {
      throw new AgentDefError(`${file}: invalid front-matter: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  const res = FrontMatter.safeParse(raw);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    throw new AgentDefError(`${file}: key "${issue.path.join('.') || '(front-matter)'}": ${issue.message}`);
  }
  const fm = res.data;
  const list = (v: string | string[] | undefined) => (typeof v === 'string' ? v.split(',').map((t) => t.trim()).filter(Boolean) : v);
  const tools = list(fm.tools);
  const mcpServers = list(fm.mcpServers);
  return {
    name: fm.name ?? path.basename(file, '.md'),
    description: fm.description ?? '',
    ...(fm.model ? { model: fm.model } : {}),
    ...(tools ? { tools } : {}),
    ...(mcpServers ? { mcpServers } : {}),
    isolation: fm.isolation ?? 'none',
    instructions: (m ? text.slice(m[0].length) : text).trim(),
    file,
  };
}

export function agentsDir(projectRoot: string): string {
  return path.join(projectRoot, '.thclaws', 'agents');
}

/** All definitions of a directory; a broken file is reported, not fatal for the others. */
export function loadAgentDefs(dir: string): { defs: AgentDef[]; errors: string[] } {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.md')).sort();
  } catch {
    return { defs: [], errors: [] };
  }
  const defs: AgentDef[] = [];
  const errors: string[] = [];
  for (const n of names) {
    const file = path.join(dir, n);
    try {
      defs.push(parseAgentDef(readFileSync(file, 'utf8'), file));
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { defs, errors };
}

export function findAgentDef(projectRoot: string, name: string): AgentDef | undefined {
  return loadAgentDefs(agentsDir(projectRoot)).defs.find((d) => d.name === name);
}
