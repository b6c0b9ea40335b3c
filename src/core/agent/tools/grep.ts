import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import type { Tool } from '../types.js';
import { fsErrorText, limitsOf, looksBinary, resolvePath, sandboxFor, toolError } from './common.js';
import { IGNORED, badPattern } from './glob.js';

const Input = z
  .object({
    pattern: z.string().min(1).describe('JavaScript regular expression'),
    path: z.string().min(1).optional().describe('File or directory to search (default: working directory)'),
    glob: z.string().min(1).optional().describe('Only files matching this glob, e.g. "**/*.ts"'),
    ignore_case: z.boolean().optional().describe('Case-insensitive match'),
  })
  .strict();

const MAX_LINE_CHARS = 300;

export const grepTool: Tool<z.infer<typeof Input>> = {
  name: 'Grep',
  description:
    'Search file contents with a regular expression. Returns "path:line:text" for each matching line (binary files, node_modules and .git are skipped).',
  inputSchema: Input,
  needsPermission: false,
  readOnly: true,
  async run(input, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(input.pattern, input.ignore_case ? 'i' : '');
    } catch (err) {
      return toolError(`invalid regular expression: ${(err as Error).message}`);
    }
    if (input.glob) {
      const bad = badPattern(input.glob);
      if (bad) return toolError(bad.replace('pattern', 'glob'));
    }
    const r = resolvePath(ctx, input.path ?? '.', 'read');
    if ('error' in r) return r.error;
    const limits = limitsOf(ctx);
    let base: string;
    let files: string[];
    try {
      const st = await stat(r.path);
      if (st.isDirectory()) {
        base = r.path;
        files = (await glob(input.glob ?? '**/*', { cwd: base, ignore: IGNORED, dot: true, followSymbolicLinks: false })).sort();
      } else {
        base = path.dirname(r.path);
        files = [path.basename(r.path)];
      }
    } catch (err) {
      return toolError(fsErrorText(err, input.path ?? '.'));
    }
    const out: string[] = [];
    let total = 0;
    for (const rel of files) {
      if (ctx.signal.aborted) return toolError('search aborted');
      const abs = path.join(base, rel);
      let buf: Buffer;
      try {
        // A symlinked file may point outside the root: it is skipped like any other refused path.
        sandboxFor(ctx).resolve(abs, base, 'read');
        const st = await stat(abs);
        if (!st.isFile() || st.size > limits.grepMaxFileBytes) continue;
        buf = await readFile(abs);
      } catch {
        continue;
      }
      if (looksBinary(buf)) continue;
      const lines = buf.toString('utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!re.test(lines[i]!)) continue;
        total++;
        if (out.length < limits.searchMaxResults) {
          const line = lines[i]!.length > MAX_LINE_CHARS ? `${lines[i]!.slice(0, MAX_LINE_CHARS)}…` : lines[i]!;
          out.push(`${rel}:${i + 1}:${line}`);
        }
      }
    }
    if (total === 0) return { content: 'no matches' };
    if (total > out.length) out.push(`[${total - out.length} more matches not shown; narrow the pattern or path]`);
    return { content: out.join('\n') };
  },
};
