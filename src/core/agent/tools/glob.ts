import { stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import type { Tool } from '../types.js';
import { fsErrorText, limitsOf, resolvePath, toolError } from './common.js';

const Input = z
  .object({
    pattern: z.string().min(1).describe('Glob pattern, e.g. "src/**/*.ts"'),
    path: z.string().min(1).optional().describe('Directory to search in (default: working directory)'),
  })
  .strict();

/** Directories nobody wants listed: huge and never the answer. */
export const IGNORED = ['**/node_modules/**', '**/.git/**', '**/.thclaws/**'];

/** Patterns may not climb out of the base directory; give `path` instead. */
export function badPattern(pattern: string): string | undefined {
  if (path.isAbsolute(pattern)) return 'pattern must be relative; put the directory in "path"';
  if (pattern.split(/[\\/]/).includes('..')) return 'pattern may not contain ".."; put the directory in "path"';
  return undefined;
}

export const globTool: Tool<z.infer<typeof Input>> = {
  name: 'Glob',
  description: 'Find files by glob pattern (node_modules and .git are skipped). Returns paths relative to the search directory.',
  inputSchema: Input,
  needsPermission: false,
  readOnly: true,
  async run(input, ctx) {
    const bad = badPattern(input.pattern);
    if (bad) return toolError(bad);
    const r = resolvePath(ctx, input.path ?? '.', 'read');
    if ('error' in r) return r.error;
    try {
      if (!(await stat(r.path)).isDirectory()) return toolError(`${input.path} is not a directory`);
    } catch (err) {
      return toolError(fsErrorText(err, input.path ?? '.'));
    }
    const files = await glob(input.pattern, {
      cwd: r.path,
      ignore: IGNORED,
      dot: true,
      followSymbolicLinks: false,
      onlyFiles: true,
      signal: ctx.signal,
    });
    if (ctx.signal.aborted) return toolError('search aborted');
    files.sort();
    if (files.length === 0) return { content: 'no files matched' };
    const max = limitsOf(ctx).searchMaxResults;
    const shown = files.slice(0, max);
    if (files.length > max) shown.push(`[${files.length - max} more files not shown; narrow the pattern]`);
    return { content: shown.join('\n') };
  },
};
