import { open, stat } from 'node:fs/promises';
import { z } from 'zod';
import type { Tool } from '../types.js';
import { fsErrorText, limitsOf, looksBinary, resolvePath, toolError } from './common.js';

const Input = z
  .object({
    path: z.string().min(1).describe('File path, relative to the working directory or absolute'),
    offset: z.number().int().min(1).optional().describe('First line to read, 1-based'),
    limit: z.number().int().min(1).optional().describe('Number of lines to read'),
  })
  .strict();

/** Above this a file is read in part only; the model pages with offset/limit. */
const MAX_READ_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;

export const readTool: Tool<z.infer<typeof Input>> = {
  name: 'Read',
  description:
    'Read a text file. Returns numbered lines (cat -n style). Use offset (1-based line) and limit to page through long files.',
  inputSchema: Input,
  needsPermission: false,
  readOnly: true,
  async run(input, ctx) {
    const r = resolvePath(ctx, input.path, 'read');
    if ('error' in r) return r.error;
    let buf: Buffer;
    try {
      const st = await stat(r.path);
      if (st.isDirectory()) return toolError(`${input.path} is a directory; use Glob to list it`);
      const fh = await open(r.path, 'r');
      try {
        const size = Math.min(st.size, MAX_READ_BYTES);
        buf = Buffer.alloc(size);
        await fh.read(buf, 0, size, 0);
      } finally {
        await fh.close();
      }
    } catch (err) {
      return toolError(fsErrorText(err, input.path));
    }
    if (looksBinary(buf)) return toolError(`${input.path} looks like a binary file; not shown`);
    const lines = buf.toString('utf8').split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const start = (input.offset ?? 1) - 1;
    const count = input.limit ?? limitsOf(ctx).readDefaultLines;
    if (lines.length === 0 || (lines.length === 1 && lines[0] === '')) return { content: '(empty file)' };
    if (start >= lines.length) return toolError(`offset ${start + 1} is past the end of the file (${lines.length} lines)`);
    const slice = lines.slice(start, start + count);
    const out = slice.map((l, i) => {
      const text = l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}… [line truncated]` : l;
      return `${String(start + i + 1).padStart(6)}\t${text}`;
    });
    const end = start + slice.length;
    if (end < lines.length) out.push(`[showing lines ${start + 1}-${end} of ${lines.length}; use offset/limit for more]`);
    return { content: out.join('\n') };
  },
};
