import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Tool } from '../types.js';
import { fsErrorText, notRegularFile, preflightWritable, runWritable, toolError } from './common.js';

const Input = z
  .object({
    file_path: z.string().min(1).describe('File path, relative to the working directory or absolute'),
    content: z.string().describe('The whole new content of the file'),
  })
  .strict();

export const writeTool: Tool<z.infer<typeof Input>> = {
  name: 'Write',
  description: 'Create or overwrite a file with the given content. Parent directories are created.',
  inputSchema: Input,
  needsPermission: true,
  legacyFields: { path: 'file_path' },
  summarize: (input) => `write ${input.file_path} (${Buffer.byteLength(input.content)} bytes)`,
  async preflight(input, ctx) {
    return preflightWritable(ctx, input);
  },
  async run(input, ctx) {
    // The path may have changed while a person was asked: sandbox, guard and target are checked again.
    const r = runWritable(ctx, input);
    if ('error' in r) return r.error;
    const special = await notRegularFile(r.path, input.file_path);
    if (special) return special;
    try {
      await mkdir(path.dirname(r.path), { recursive: true });
      await writeFile(r.path, input.content);
    } catch (err) {
      return toolError(fsErrorText(err, input.file_path));
    }
    return { content: `wrote ${Buffer.byteLength(input.content)} bytes to ${input.file_path}` };
  },
};
