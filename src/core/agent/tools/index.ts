import type { Tool } from '../types.js';
import { bashOutputTool, bashTool, killShellTool } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readTool } from './read.js';
import { writeTool } from './write.js';

export { bashOutputTool, bashTool, editTool, killShellTool, globTool, grepTool, readTool, writeTool };

/** The built-in file and shell tools, in the order the model sees them. */
export function builtinTools(): Tool<any>[] {
  return [readTool, writeTool, editTool, bashTool, bashOutputTool, killShellTool, globTool, grepTool];
}
