/**
 * Grep on ripgrep (`rg` on PATH): honours .gitignore, never searches .thclaws/ (sessions would match their
 * own searches), skips node_modules and .git, follows no symlinks; output modes content /
 * files_with_matches / count, context lines, head_limit, multiline. Killed at once on abort. Without `rg`,
 * a JS walk (grep-js.ts) answers the same query.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isInside } from '../../fs-paths.js';
import type { Tool, ToolContext } from '../types.js';
import { fsErrorText, limitsOf, resolvePath, sandboxFor, toolError } from './common.js';
import { badPattern } from './glob.js';
import { searchJs } from './grep-js.js';

const Input = z
  .object({
    pattern: z.string().min(1).describe('Regular expression (ripgrep syntax)'),
    path: z.string().min(1).optional().describe('File or directory to search (default: working directory)'),
    glob: z.string().min(1).optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.tsx"'),
    output_mode: z
      .enum(['content', 'files_with_matches', 'count'])
      .optional()
      .describe('content: matching lines as path:line:text; files_with_matches (default): paths; count: path:matches'),
    '-i': z.boolean().optional().describe('Case-insensitive'),
    ignore_case: z.boolean().optional().describe('Same as -i'),
    '-A': z.number().int().min(0).max(100).optional().describe('Lines after each match (content mode)'),
    '-B': z.number().int().min(0).max(100).optional().describe('Lines before each match (content mode)'),
    '-C': z.number().int().min(0).max(100).optional().describe('Lines around each match (content mode)'),
    head_limit: z.number().int().min(1).optional().describe('Show only the first N lines / files / counts'),
    multiline: z.boolean().optional().describe('Let the pattern span lines (. matches newlines)'),
  })
  .strict();

type GrepInput = z.infer<typeof Input>;

export interface GrepQuery {
  pattern: string;
  target: string;
  glob?: string;
  ignoreCase: boolean;
  multiline: boolean;
  before: number;
  after: number;
}

export interface GrepHit {
  file: string;
  count: number;
  lines: Array<{ n: number; text: string; match: boolean }>;
}

const MAX_LINE_CHARS = 300;
/** rg output read at most; beyond it rg is stopped (head_limit and searchMaxResults show far less). */
const MAX_RG_BYTES = 16 * 1024 * 1024;

let rgPath: string | null | undefined;

/** Which engine Grep uses: the PATH lookup (undefined), a given rg, or null for the JS walk (tests of both). */
export function useRipgrep(p: string | null | undefined): void {
  rgPath = p;
}
/** `rg` on PATH, looked up once. */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | null {
  if (rgPath !== undefined) return rgPath;
  rgPath = null;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg');
    try {
      accessSync(p, constants.X_OK);
      rgPath = p;
      break;
    } catch {
      // Not here.
    }
  }
  return rgPath;
}

/** Runs rg with `--json`-free output: `--heading` blocks, one per file, parsed into hits. */
function searchRg(rg: string, q: GrepQuery, ctx: ToolContext): Promise<GrepHit[] | { error: string }> {
  const isDir = statSync(q.target).isDirectory();
  const cwd = isDir ? q.target : path.dirname(q.target);
  const args = [
    '--no-config', '--color', 'never', '--no-messages', '--hidden', '--no-require-git',
    // No --max-filesize: it costs a stat per file (~25 % of the search); rg streams big files, and long lines are cut.
    '--heading', '--with-filename', '--line-number', '--max-columns', '1000', '--max-columns-preview',
    // The model's glob goes first: for ripgrep a later glob wins, so `*` after these would re-open .thclaws/.
    ...(q.glob ? ['--glob', q.glob] : []),
    '--glob', '!.git/', '--glob', '!node_modules/', '--glob', '!.thclaws/',
  ];
  if (q.ignoreCase) args.push('--ignore-case');
  if (q.multiline) args.push('--multiline', '--multiline-dotall');
  if (q.before) args.push('-B', String(q.before));
  if (q.after) args.push('-A', String(q.after));
  // Always a path: without one, rg searches its stdin when that is not a terminal.
  args.push('--regexp', q.pattern, '--', isDir ? '.' : path.basename(q.target));
  return new Promise((resolve) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    const onAbort = () => child.kill('SIGKILL');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_RG_BYTES) child.kill('SIGKILL');
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', (e) => resolve({ error: `could not run rg: ${e.message}` }));
    child.on('close', (code) => {
      ctx.signal.removeEventListener('abort', onAbort);
      if (ctx.signal.aborted) return resolve({ error: 'search aborted' });
      if (code === 2 && !size) return resolve({ error: `invalid search: ${err.trim().split('\n').slice(-3).join(' ')}` });
      resolve(parseHeading(Buffer.concat(out).toString('utf8')));
    });
  });
}

/** `path\nN:text\nN-context\n--\n…` blocks, one per file, separated by an empty line. */
function parseHeading(text: string): GrepHit[] {
  const hits: GrepHit[] = [];
  let cur: GrepHit | undefined;
  for (const line of text.split('\n')) {
    if (line === '') {
      cur = undefined;
      continue;
    }
    if (!cur) {
      cur = { file: line.replace(/^\.\//, ''), count: 0, lines: [] };
      hits.push(cur);
      continue;
    }
    const m = /^(\d+)([:-])(.*)$/s.exec(line);
    if (!m) continue; // `--` between context groups
    const match = m[2] === ':';
    cur.lines.push({ n: Number(m[1]), text: m[3]!, match });
    if (match) cur.count++;
  }
  return hits.filter((h) => h.count > 0).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function render(hits: GrepHit[], mode: NonNullable<GrepInput['output_mode']>, limit: number): string {
  let rows: string[];
  if (mode === 'files_with_matches') rows = hits.map((h) => h.file);
  else if (mode === 'count') rows = hits.map((h) => `${h.file}:${h.count}`);
  else {
    rows = hits.flatMap((h) =>
      h.lines.map((l) => {
        const t = l.text.length > MAX_LINE_CHARS ? `${l.text.slice(0, MAX_LINE_CHARS)}…` : l.text;
        return `${h.file}${l.match ? ':' : '-'}${l.n}${l.match ? ':' : '-'}${t}`;
      }),
    );
  }
  if (rows.length === 0) return 'no matches';
  const shown = rows.slice(0, limit);
  if (rows.length > limit) shown.push(`[${rows.length - limit} more ${mode === 'content' ? 'lines' : 'files'} not shown; narrow the pattern or path, or raise head_limit]`);
  return shown.join('\n');
}

export const grepTool: Tool<GrepInput> = {
  name: 'Grep',
  description:
    'Search file contents with ripgrep. output_mode: files_with_matches (default), content (path:line:text, with -A/-B/-C context) or count. ' +
    'Honours .gitignore; node_modules, .git and .thclaws are skipped. Use glob to narrow by file name and head_limit to cap the output.',
  inputSchema: Input,
  needsPermission: false,
  readOnly: true,
  async run(input, ctx) {
    if (input.glob) {
      const bad = badPattern(input.glob);
      if (bad) return toolError(bad.replace('pattern', 'glob'));
    }
    const r = resolvePath(ctx, input.path ?? '.', 'read');
    if ('error' in r) return r.error;
    if (isInside(r.path, path.join(sandboxFor(ctx).root, '.thclaws'))) return toolError('Grep does not search .thclaws/ (sessions and team state); use Read');
    const limits = limitsOf(ctx);
    const context = input['-C'] ?? 0;
    const q: GrepQuery = {
      pattern: input.pattern,
      target: r.path,
      ...(input.glob ? { glob: input.glob } : {}),
      ignoreCase: !!(input['-i'] ?? input.ignore_case),
      multiline: !!input.multiline,
      before: input['-B'] ?? context,
      after: input['-A'] ?? context,
    };
    let hits;
    try {
      const rg = findRipgrep();
      hits = rg ? await searchRg(rg, q, ctx) : await searchJs(q, ctx, limits.grepMaxFileBytes);
    } catch (err) {
      return toolError(fsErrorText(err, input.path ?? '.'));
    }
    if ('error' in hits) return toolError(hits.error);
    return { content: render(hits, input.output_mode ?? 'files_with_matches', Math.min(input.head_limit ?? limits.searchMaxResults, limits.searchMaxResults)) };
  },
};
