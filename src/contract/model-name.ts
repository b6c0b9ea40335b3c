/**
 * What a model id may look like wherever one is named (settings, TeamCreate, SpawnTeammate, the CLI, the
 * dashboard): an alias, an Anthropic id, or `<profile>/<model>` with the server's own id after the slash
 * (`qwen3-coder:32b`, `meta-llama/Llama-3.1-8B-Instruct`, `claude-sonnet-4-5@20250929`). No spaces or
 * control characters: the id is shown in terminals and pane headers. The renderer uses it too.
 */
import { z } from 'zod';

export const MODEL_NAME_MAX = 200;
export const MODEL_NAME_PATTERN = new RegExp(`^[A-Za-z0-9_][A-Za-z0-9._:/@+=~-]{0,${MODEL_NAME_MAX - 1}}$`);
const HINT = 'a model id: letters, digits and . _ : / @ + = ~ -, no spaces, at most 200 characters';

export const ModelNameSchema = z.string().regex(MODEL_NAME_PATTERN, HINT);

/** null when `s` is a valid model id, else why not (for one-line CLI errors). */
export function modelNameProblem(s: string): string | null {
  return MODEL_NAME_PATTERN.test(s) ? null : `invalid model ${JSON.stringify(s.slice(0, 80))}: ${HINT}`;
}

/** Text for a terminal: control characters (escapes, newlines) shown as \xNN, never acted on. */
export function printable(s: string): string {
  return s.replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
