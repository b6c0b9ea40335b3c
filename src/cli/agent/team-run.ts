/** Team runs of the CLI: a teammate process (headless loop), and `-p` as the lead of a team until done. */
import type { PromptResult } from '../../core/agent/agent.js';
import type { LoopEvents } from '../../core/agent/loop.js';
import { idleNotice, type LeadEvent } from '../../core/teams/lead-handler.js';
import type { TeamSession } from '../../core/teams/session.js';
import type { StoredPermissionMode } from '../../contract/settings-schema.js';
import { randomUUID } from 'node:crypto';
import { ClaudeJsonTurn, usageJson } from './claude-json.js';
import { waitForWake } from './wake-wait.js';
import { outputSaver } from './live-tail.js';
import { painter, TurnRenderer } from './render.js';
import type { Runtime } from './setup.js';
import type { LeadBatch } from '../../core/teams/lead-handler.js';

/**
 * The teammate's whole life: its loop prints to stdout (output.log / the pane). Its permission mode is the
 * team's choice for it (settings `teammates.<name>.permissionMode`, `teammatePermissionMode`, default `ask`)
 * or a flag given on its own command line — never the lead's mode.
 */
export async function runTeammateCli(rt: Runtime, session: TeamSession, explicitMode?: StoredPermissionMode): Promise<number> {
  const [{ TeammateLoop }, { ResponseWaiters }, { TeamApprover }] = await Promise.all([
    import('../../core/teams/teammate-loop.js'),
    import('../../core/teams/approvals.js'),
    import('../../core/teams/team-approver.js'),
  ]);
  const renderer = new TurnRenderer((s) => process.stdout.write(s), painter(!!process.stdout.isTTY && !process.env.NO_COLOR), {
    columns: () => process.stdout.columns ?? 80,
    saveOutput: outputSaver(() => rt.agent.session),
  });
  const print = (l: string) => renderer.line(l);
  const responses = new ResponseWaiters();
  const [{ BudgetGuard, settingsBudgets }, { priceFor }] = await Promise.all([import('../../core/teams/budget-guard.js'), import('../../core/agent/cost.js')]);
  const budget = new BudgetGuard(session, settingsBudgets(rt.info.projectRoot, process.env, rt.info.settings.budgets), print, () => priceFor(rt.agent.model) !== undefined);
  const loop = new TeammateLoop(session, rt.agent, {
    budget,
    ...(process.env.THCLAWS_SPAWN_ID ? { spawnId: process.env.THCLAWS_SPAWN_ID } : {}),
    model: rt.agent.model,
    print,
    events: renderer.events(),
    responses,
  });
  const { settings, sandboxRoot, cwd } = rt.info;
  const mode = explicitMode ?? settings.teammates[session.me]?.permissionMode ?? settings.teammatePermissionMode;
  rt.permissions.setMode(mode);
  rt.permissions.setApprover(
    new TeamApprover(session, { cwd, ...(sandboxRoot ? { worktree: sandboxRoot } : {}), waiters: responses, setWaiting: (w, onlyIf) => loop.setWaiting(w, onlyIf), print, timeoutMs: settings.approvalTimeoutMs,
      // A cold sandbox (first command) is readied before the question, not after the person's answer.
      beforeAsk: (req) => (req.tool === 'Bash' ? rt.sandbox.warm() : Promise.resolve()),
    }),
  );
  const member = (await session.team.config.load())?.members.find((m) => m.name === session.me);
  const planMode = process.env.THCLAWS_PLAN_MODE === '1' || settings.planModeRequired || settings.teammates[session.me]?.planModeRequired === true || member?.plan_mode_required === true;
  if (planMode) {
    const { PlanMode } = await import('../../core/teams/plan-mode.js');
    new PlanMode(session, { cwd, waiters: responses, setWaiting: (w) => loop.setWaiting(w), print, timeoutMs: settings.approvalTimeoutMs, approver: settings.planApprover }).gate(rt.agent.tools);
    print(`[${session.me}] plan mode: only reading until a plan submitted with SubmitPlan is approved by the ${settings.planApprover === 'lead' ? 'lead' : 'person'}`);
  }
  print(`[${session.me}] permission mode: ${mode}${mode === 'ask' ? ` (requests go to the ${settings.permissionApprover === 'lead' ? 'lead' : 'person'})` : ''}`);
  // Nothing this teammate ran outlives it: a previous process's leftovers end before it works, its own
  // commands' groups are recorded as they start, and every signal it can catch kills them at once.
  const { endLeftoverGroups, groupRecorder, markCommands } = await import('../../core/teams/command-groups.js');
  markCommands(session);
  const leftover = await endLeftoverGroups(session);
  if (leftover) print(`[${session.me}] ended ${leftover} process group(s) an earlier process of ${session.me} left running`);
  rt.shells.onGroups(groupRecorder(session, (err) => print(`[${session.me}] command groups not recorded: ${err.message}`)));
  for (const [sig, code] of [['SIGTERM', 143], ['SIGINT', 143], ['SIGHUP', 129]] as const) {
    process.on(sig, () => {
      // A hung-up terminal fails every later write: the final status still gets written.
      if (sig === 'SIGHUP') for (const s of [process.stdout, process.stderr]) s.on('error', () => {});
      rt.shells.killAll();
      void loop.stop(code);
    });
  }
  const code = await loop.run();
  await session.close();
  return code;
}

export function describeLeadEvent(e: LeadEvent): string {
  switch (e.kind) {
    case 'message':
      return `[message from '${e.from}']: ${e.text.slice(0, 300)}`;
    case 'idle':
      return idleNotice(e);
    case 'shutdown_reply':
      return e.approved ? `[${e.from} shutdown approved — stopped]` : `[${e.from} shutdown rejected: ${e.reason}]`;
    case 'dead':
      return `[watchdog] ${e.agent} is not running${e.released.length ? `; released task(s) ${e.released.join(', ')}` : ''}`;
    case 'dropped':
      return `[dropped ${e.type} from ${e.from}: ${e.why}]`;
    case 'status':
      return `[${e.agent} is ${e.state}${e.task ? ` (task #${e.task})` : ''}]`;
    case 'approval':
      return `[${e.from} waits for ${e.approval} approval ${e.request_id}: ${e.summary.slice(0, 200)}]${e.fed ? '' : ` — thclaws team approve|deny ${e.request_id}`}`;
  }
}

/**
 * `thclaws -p` with teams on: the prompt's turn, then lead turns for teammate messages until every task
 * is completed and every teammate idle (or --timeout); then the team is shut down. Exit 0 only if all
 * tasks completed.
 */
export async function runTeamPrint(rt: Runtime, session: TeamSession, prompt: string, format: 'text' | 'json' | 'stream-json', timeoutS: number | undefined): Promise<number> {
  const [{ LeadHandler, budgetStopped }, { shutdownTeam }] = await Promise.all([import('../../core/teams/lead-handler.js'), import('../../core/teams/shutdown.js')]);
  const { agent } = rt;
  const controller = new AbortController();
  const onSig = () => controller.abort();
  process.on('SIGINT', onSig);
  process.on('SIGTERM', onSig);
  const emit = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);
  const log = (line: string) => (format === 'text' ? process.stderr.write(`${line}\n`) : undefined);
  const stream = format === 'stream-json';
  // Lead turns in the shapes of `claude -p` (as plain -p); the team's events as `system` lines beside them.
  if (stream) emit(ClaudeJsonTurn.init(rt));
  let lastTurn: ClaudeJsonTurn | undefined;
  const turnEvents = (): LoopEvents => {
    if (format === 'text') return { onToolCall: (c) => log(`[lead] ${c.name} ${c.summary}`), onToolResult: (r) => r.isError && log(`[lead] ${r.name} failed: ${r.content.split('\n')[0]}`) };
    lastTurn = new ClaudeJsonTurn(rt, (m) => stream && emit(m), stream);
    return lastTurn.events();
  };
  const teamLine = (event: object) => emit({ type: 'system', subtype: 'team', session_id: agent.session.id, uuid: randomUUID(), event });

  const handler = new LeadHandler(session);
  handler.onEvent((e) => (stream ? teamLine(e) : e.kind !== 'status' && log(describeLeadEvent(e))));
  const deadline = timeoutS ? Date.now() + timeoutS * 1000 : Infinity;
  const timer = timeoutS ? setTimeout(() => controller.abort(), timeoutS * 1000) : undefined;
  let last: PromptResult;
  let turns = 0;
  let timedOut = false;
  // Set when the open work waits on a reached budget: a print run cannot raise it, so it ends and says so.
  let budgetStop: string | undefined;
  // Watch from the moment there is a team (TeamCreate may run in the first turn).
  if (session.role === 'lead' && session.teamExists()) handler.start();
  session.onRole(() => handler.start());
  try {
    session.notePersonPrompt(prompt);
    last = await agent.prompt(prompt, controller.signal, turnEvents());
    turns++;
    if (session.role === 'lead' && session.teamExists()) {
      handler.start();
      let wake: (() => void) | undefined;
      handler.onWake(() => wake?.());
      /** One lead turn on a batch of notices, if it has any; the batch is acknowledged either way. */
      const turn = async (batch: LeadBatch): Promise<boolean> => {
        if (batch.prompt) {
          last = await agent.prompt(batch.prompt, controller.signal, turnEvents());
          turns++;
        }
        await handler.ack(batch.ids);
        return !!batch.prompt;
      };
      for (;;) {
        if (controller.signal.aborted) {
          timedOut = Date.now() >= deadline;
          break;
        }
        if (await turn(handler.drain())) continue;
        const { progress: p, done, late } = await handler.settle();
        if (await turn(late)) continue;
        if (done) break;
        if (p.held) {
          // A notice that came in meanwhile gets its lead turn (the lead may hand the work on) before giving up.
          if (await turn(handler.drain())) continue;
          // Said as it will be once this run ends: the held teammates are stopped with the rest of the team.
          budgetStop = budgetStopped(p.held, session.projectRoot);
          break;
        }
        if (!p.live.length && p.open > 0) {
          // Nobody left to do the work: one more lead turn if the watchdog has news (it may respawn), else stop.
          await handler.watchdog();
          if (await turn(handler.drain())) continue;
          break;
        }
        await waitForWake(controller.signal, 1000, (w) => (wake = w));
        wake = undefined;
      }
    }
  } finally {
    if (timer) clearTimeout(timer);
    process.off('SIGINT', onSig);
    process.off('SIGTERM', onSig);
  }
  let allDone = true;
  let summaryTasks: { total: number; open: number } = { total: 0, open: 0 };
  if (session.role === 'lead' && session.teamExists()) {
    const sd = await shutdownTeam(session, handler, { force: true, print: log });
    if (stream) teamLine({ kind: 'shutdown', ...sd });
    handler.stop();
    const p = await handler.progress();
    summaryTasks = { total: p.total, open: p.open };
    allDone = p.open === 0;
  }
  await session.close();
  const error = timedOut ? `timed out after ${timeoutS} s with ${summaryTasks.open} task(s) open` : budgetStop ?? last!.error ?? (!allDone ? `${summaryTasks.open} task(s) not completed` : undefined);
  const ok = !timedOut && !budgetStop && allDone && (last!.stop === 'end_turn' || turns > 1);
  const base = lastTurn?.result(last!);
  const summary = {
    ...base,
    type: 'result',
    subtype: ok ? 'success' : 'error_during_execution',
    is_error: !ok,
    num_turns: turns,
    stop_reason: timedOut ? 'timeout' : budgetStop ? 'budget' : last!.stop,
    usage: usageJson(agent.usage),
    tasks: summaryTasks,
    ...(!ok ? { errors: [error ?? 'team run failed'] } : {}),
  };
  if (ok) delete (summary as { errors?: unknown }).errors;
  if (format === 'json' || stream) emit(summary);
  else {
    if (last!.text) process.stdout.write(last!.text.endsWith('\n') ? last!.text : `${last!.text}\n`);
    if (!ok) process.stderr.write(`thclaws: ${error ?? 'team run failed'}\n`);
  }
  return ok ? 0 : controller.signal.aborted && !timedOut ? 130 : 1;
}
