import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Tool } from '../types.js';
import { fsErrorText, notRegularFile, preflightWritable, runWritable, toolError } from './common.js';

const Input = z
  .object({
    file_path: z.string().min(1).describe('File to edit'),
    old_string: z.string().min(1).describe('Exact text to replace; must be unique unless replace_all'),
    new_string: z.string().describe('Replacement text'),
    replace_all: z.boolean().optional().describe('Replace every occurrence'),
  })
  .strict();

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

export const editTool: Tool<z.infer<typeof Input>> = {
  name: 'Edit',
  description:
    'Replace exact text in a file. old_string must match exactly once (include surrounding lines to make it unique), or set replace_all.',
  inputSchema: Input,
  needsPermission: true,
  legacyFields: { path: 'file_path' },
  summarize: (input) => `edit ${input.file_path}${input.replace_all ? ' (all occurrences)' : ''}`,
  async preflight(input, ctx) {
    return preflightWritable(ctx, input);
  },
  async run(input, ctx) {
    // The path may have changed while a person was asked: sandbox, guard and target are checked again.
    const r = runWritable(ctx, input);
    if ('error' in r) return r.error;
    const special = await notRegularFile(r.path, input.file_path);
    if (special) return special;
    if (input.old_string === input.new_string) return toolError('old_string and new_string are identical; nothing to do');
    let text: string;
    try {
      text = await readFile(r.path, 'utf8');
    } catch (err) {
      return toolError(fsErrorText(err, input.file_path));
    }
    const n = countOccurrences(text, input.old_string);
    if (n === 0) return toolError(`old_string not found in ${input.file_path}; Read the file and copy the text exactly`);
    if (n > 1 && !input.replace_all) {
      return toolError(`old_string occurs ${n} times in ${input.file_path}; add surrounding context to make it unique, or set replace_all`);
    }
    const updated = input.replace_all
      ? text.split(input.old_string).join(input.new_string)
      : text.replace(input.old_string, () => input.new_string);
    try {
      await writeFile(r.path, updated);
    } catch (err) {
      return toolError(fsErrorText(err, input.file_path));
    }
    return { content: `edited ${input.file_path}: ${input.replace_all ? n : 1} replacement(s)` };
  },
};
