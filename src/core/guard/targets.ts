/** Small pieces the program rules share: a word made from text found inside a program's own language, and the first refused target. */
import type { Env, Finding } from './finding.js';
import { checkTarget } from './fs-rules.js';
import { unknownWord, type Word } from './words.js';

/** Re-enters the shell checker for a script found inside a program's arguments. */
export type ScriptChecker = (script: string, env: Env) => Finding | null;

/** A path named inside awk, SQL or ex text: taken literally (no shell expansion happens there). */
export const asWord = (text: string): Word => ({ ...unknownWord(text), text, dynamic: false, prefix: text });

export function firstHit(words: readonly Word[], env: Env, verb: string, recursive: boolean): Finding | null {
  for (const w of words) {
    const f = checkTarget(w, env, verb, recursive);
    if (f) return f;
  }
  return null;
}
