/**
 * The lead's questions, announced to the dashboard that runs it: while the REPL waits for the person's
 * y/n/a (a permission, the folder trust), the question is written to the file the host named in
 * THCLAWS_QUESTION_FILE, and removed once answered. The host shows it as a card in its approval inbox and
 * answers by typing into this REPL's terminal, so typing in the pane keeps working too.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LoopEvents } from '../../core/agent/loop.js';

export interface LeadQuestion {
  kind: 'permission' | 'trust';
  tool: string;
  summary: string;
  /** The command or path asked about. */
  detail: string | null;
  /** What "always" would allow, when offered. */
  rule: string | null;
  /** The tool's input (the card words it and shows it raw under "details"). */
  input?: unknown;
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

/**
 * The lead's tools the dashboard tells the person about while they run (from the call, through its approval,
 * to its result): TeamCreate, so the page says "the lead is setting up the team…" instead of offering a race.
 * Written beside the question file (`activity.json`); `done()` withdraws it when the turn ends however it ends.
 */
export function announceTools(events: LoopEvents, tools: readonly string[], env: NodeJS.ProcessEnv = process.env): { events: LoopEvents; done: () => void } {
  const file = env.THCLAWS_QUESTION_FILE;
  if (!file) return { events, done: () => {} };
  const activity = activityFile(file);
  let running: string | null = null;
  const clear = () => {
    if (running === null) return;
    running = null;
    fs.rmSync(activity, { force: true });
  };
  return {
    events: {
      ...events,
      onToolCall: (c) => {
        events.onToolCall?.(c);
        if (!tools.includes(c.name)) return;
        running = c.id;
        try {
          const tmp = `${activity}.${process.pid}.tmp`;
          fs.writeFileSync(tmp, JSON.stringify({ tool: c.name, since: Date.now() }), { mode: 0o600 });
          fs.renameSync(tmp, activity);
        } catch {
          running = null; // the host went away
        }
      },
      onToolResult: (r) => {
        events.onToolResult?.(r);
        if (r.id === running) clear();
      },
    },
    done: clear,
  };
}

function activityFile(questionFile: string): string {
  return path.join(path.dirname(questionFile), 'activity.json');
}

/** At the REPL's start: a tool a previous lead process left announced (it died mid-call) runs no more. */
export function withdrawTools(env: NodeJS.ProcessEnv = process.env): void {
  if (env.THCLAWS_QUESTION_FILE) fs.rmSync(activityFile(env.THCLAWS_QUESTION_FILE), { force: true });
}
