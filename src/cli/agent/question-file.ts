/**
 * The lead's questions, announced to the dashboard that runs it: while the REPL waits for the person's
 * y/n/a (a permission, the folder trust), the question is written to the file the host named in
 * THCLAWS_QUESTION_FILE, and removed once answered. The host shows it as a card in its approval inbox and
 * answers by typing into this REPL's terminal, so typing in the pane keeps working too.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';

export interface LeadQuestion {
  kind: 'permission' | 'trust';
  tool: string;
  summary: string;
  /** The command or path asked about. */
  detail: string | null;
  /** What "always" would allow, when offered. */
  rule: string | null;
}

/** Announces a question; the returned function withdraws it (only if it is still this one). */
export function announceQuestion(q: LeadQuestion, env: NodeJS.ProcessEnv = process.env): () => void {
  const file = env.THCLAWS_QUESTION_FILE;
  if (!file) return () => {};
  const id = randomUUID();
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ id, ...q, cwd: process.cwd(), since: Date.now() }), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    return () => {}; // the host went away: the question is still asked in the terminal
  }
  return () => {
    try {
      if ((JSON.parse(fs.readFileSync(file, 'utf8')) as { id?: string }).id === id) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
}
