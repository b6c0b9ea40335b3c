import path from 'node:path';
import type { Command } from 'commander';
import { loadSettings } from '../../core/agent/settings.js';
import { isAgentName } from '../../core/store/index.js';
import { filePatch, teamBranches, teammateChanges, type FileChange } from '../../core/review/changes.js';
import { scanConflicts } from '../../core/review/conflicts.js';
import { checksSandbox } from '../../core/review/checks-sandbox.js';
import { integrateAndLand, integrationDir } from '../../core/review/integrate.js';
import { mergeRefusals, predictMerges } from '../../core/review/merge-plan.js';
import { assertMember, reviewAndSend, type CommentInput } from '../../core/review/review.js';
import { CliError } from '../errors.js';
import { action, openStore, print, teammateSelf, withCommon, type CommonOpts } from './common.js';
import { teammateBranch } from '../../contract/branch.js';

const LETTER: Record<FileChange['status'], string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R', copied: 'C', type_changed: 'T' };

/** One file as a `--stat` line: status, counts (or binary/huge), path, where it is. */
function statLine(f: FileChange): string {
  const counts = f.huge ? `huge (${f.size ?? '?'} bytes)` : f.binary ? 'binary' : `+${f.added ?? 0} -${f.deleted ?? 0}`;
  const name = f.old_path ? `${JSON.stringify(f.old_path)} -> ${JSON.stringify(f.path)}` : JSON.stringify(f.path);
  return `${LETTER[f.status]}  ${counts.padEnd(12)} ${name}  [${f.source}]`;
}

/** `path:line` or `path:line-end`; the path is everything before the last colon (it may hold colons). */
export function parseCommentSpecs(values: string[]): CommentInput[] {
  if (!values.length) throw new CliError('give at least one --comment <path>:<line> <text>');
  if (values.length % 2) throw new CliError('each --comment takes two values: <path>:<line> <text>');
  const out: CommentInput[] = [];
  for (let i = 0; i < values.length; i += 2) {
    const spec = values[i]!;
    const m = /^([\s\S]+):(\d+)(?:-(\d+))?$/.exec(spec);
    if (!m) throw new CliError(`invalid comment location ${JSON.stringify(spec)}: expected <path>:<line> or <path>:<line>-<line>`);
    const text = values[i + 1]!.trim();
    if (!text) throw new CliError(`the comment on ${spec} has no text`);
    out.push({ path: m[1]!, line: Number(m[2]), end_line: m[3] ? Number(m[3]) : null, text });
  }
  return out;
}

function root(opts: CommonOpts): string {
  return path.resolve(opts.dir ?? process.cwd());
}

function checkName(name: string): void {
  if (!isAgentName(name)) throw new CliError(`invalid teammate name ${JSON.stringify(name)}`);
}

export function registerReviewCommands(team: Command): void {
  withCommon(team.command('diff <name>'))
    .description("a teammate's changes: commits on team/<name> since the lead's branch, plus its uncommitted work")
    .option('--stat', 'only the file list with +/- counts')
    .action(
      action(async (name: string, opts: CommonOpts & { stat?: boolean }) => {
        checkName(name);
        const store = openStore(opts);
        await assertMember(store, name);
        const ch = await teammateChanges(root(opts), name);
        const patches = opts.stat ? [] : await Promise.all(ch.files.map(async (f) => ({ path: f.path, source: f.source, patch: await filePatch(root(opts), ch, f) })));
        print(opts, opts.stat ? ch : { ...ch, patches }, () => {
          const head = `${name}: ${ch.branch} ${ch.ahead} ahead, ${ch.behind} behind ${ch.into}; ${ch.files.length} file(s)`;
          if (opts.stat) return [head, ...ch.files.map((f) => `  ${statLine(f)}`)].join('\n');
          return [head, ...patches.map((p, i) => `# ${statLine(ch.files[i]!)}\n${p.patch ?? '(no text diff)\n'}`)].join('\n');
        });
      }),
    );

  withCommon(team.command('review <name>'))
    .description('send review comments to a teammate as one message from user')
    .requiredOption('--comment <location-and-text...>', '<path>:<line> <text> (repeat for more comments)')
    .option('--request-changes', "also reopen the teammate's last completed task with the review as its description")
    .action(
      action(async (name: string, opts: CommonOpts & { comment: string[]; requestChanges?: boolean }) => {
        if (teammateSelf()) throw new CliError('a teammate cannot send reviews; the person does');
        checkName(name);
        const comments = parseCommentSpecs(opts.comment);
        const store = openStore(opts);
        const r = await reviewAndSend(store, root(opts), name, comments, { requestChanges: opts.requestChanges === true });
        print(opts, r, () => `sent ${r.sent.length} comment(s) to ${name}${r.reopened ? `; task #${r.reopened} reopened with the review` : ''}`);
      }),
    );

  withCommon(team.command('conflicts'))
    .description('teammates whose work touches the same files: overlap (merges clean) or conflict')
    .action(
      action(async (opts: CommonOpts) => {
        openStore(opts);
        const warnings = await scanConflicts(root(opts), await teamBranches(root(opts)));
        print(opts, warnings, () =>
          warnings.length
            ? warnings
                .map((w) => `${w.kind}: ${w.agents.join(' + ')}\n${w.files.map((f) => `  ${f.conflict ? 'conflict' : 'overlap '} ${JSON.stringify(f.path)}${f.lines.length ? ` lines ${f.lines.map((l) => (l.start === l.end ? `${l.start}` : `${l.start}-${l.end}`)).join(', ')}` : ''}`).join('\n')}`)
                .join('\n')
            : 'no overlapping work',
        );
      }),
    );

  withCommon(team.command('merge [names...]'))
    .description("merge teammate branches: integrated and checked in a worktree of their own, then the lead's branch fast-forwarded")
    .option('--dry-run', 'predict, in order, which branches merge clean and which conflict; change nothing')
    .option('--checks', 'run the `checks` setting in the integration worktree before landing')
    .option('--last-commit', 'merge a working teammate\'s last commit anyway')
    .option('--leave-uncommitted', "merge even though a teammate's uncommitted files are left out (warned)")
    .option('--despite-comments', 'land even though review comments on a branch are still open (warned)')
    .action(
      action(async (names: string[], opts: CommonOpts & { dryRun?: boolean; checks?: boolean; lastCommit?: boolean; leaveUncommitted?: boolean; despiteComments?: boolean }) => {
        if (teammateSelf()) throw new CliError('a teammate cannot merge; the lead or the person does');
        for (const n of names) checkName(n);
        const store = openStore(opts);
        const dir = root(opts);
        const known = await teamBranches(dir);
        for (const n of names) if (!known.includes(n)) throw new CliError(`no branch ${teammateBranch(n)}; team branches: ${known.join(', ') || 'none'}`);
        const agents = names.length ? names : known;
        if (opts.dryRun) {
          const p = await predictMerges(dir, agents);
          const { refusals, warnings } = await mergeRefusals(store, dir, agents, { allowLive: opts.lastCommit, allowUncommitted: opts.leaveUncommitted, allowOpenComments: opts.despiteComments });
          print(opts, { ...p, refusals, warnings }, () =>
            [
              `dry run into ${p.into} (nothing changed):`,
              ...p.results.map((r) => `  ${r.agent}: ${r.result === 'conflict' ? `would CONFLICT in ${r.conflicts.map((c) => JSON.stringify(c)).join(', ')}` : r.result === 'clean' ? `${r.ahead} commit(s), would merge cleanly` : r.result === 'nothing' ? 'nothing to merge' : 'no branch'}`),
              ...[...refusals, ...warnings].map((r) => `  note: ${r.reason}`),
            ].join('\n'),
          );
          return;
        }
        const checks = opts.checks ? loadSettings(dir).settings.checks : [];
        if (opts.checks && !checks.length) throw new CliError('--checks: the `checks` setting is empty (e.g. "checks": ["npm test"] in .thclaws/settings.json)');
        let sandboxText = '';
        const wrap = async (command: string, d: string) => {
          const sb = await checksSandbox(dir, d);
          if (!sandboxText) {
            sandboxText = sb.text;
            if (!opts.json) process.stderr.write(`${sb.text}\n`);
          }
          return sb.wrap ? sb.wrap(command, d) : command;
        };
        const r = await integrateAndLand(store, dir, {
          agents,
          checks,
          allowLive: opts.lastCommit,
          allowUncommitted: opts.leaveUncommitted,
          allowOpenComments: opts.despiteComments,
          wrap,
          onOutput: opts.json ? undefined : (s) => process.stdout.write(s),
        });
        if (r.refusals.length && !r.landed && !r.merged.length && !r.failed) throw new CliError(`merge refused: ${r.refusals.map((x) => x.reason).join('; ')}`);
        const nothingOnly = !r.landed && !r.merged.length && !r.conflicted.length && !r.failed && r.nothing.length > 0;
        print(opts, { ...r, sandbox: sandboxText || null }, () =>
          [
            ...r.warnings.map((w) => `warning: ${w.reason}`),
            ...r.nothing.map((a) => `${a}: nothing to merge (${teammateBranch(a)} has no commit that ${r.into} lacks)`),
            ...r.conflicted.map((c) => `${c.agent}: CONFLICT in ${c.files.map((f) => JSON.stringify(f)).join(', ')} (skipped)`),
            r.failed
              ? `check failed: ${JSON.stringify(r.failed.command)} exited ${r.failed.code ?? 'killed'} in ${integrationDir(dir)}; nothing landed`
              : r.landed
                ? `landed on ${r.into}: ${r.landings.map((l) => `${l.agent} (${l.count} commit(s)${l.tasks.length ? `, tasks ${l.tasks.map((t) => `#${t}`).join(' ')}` : ''})`).join(', ')} (${r.head?.slice(0, 12)}); told the lead and ${r.landings.map((l) => l.agent).join(', ')}`
                : nothingOnly
                  ? `nothing to merge into ${r.into}`
                  : `nothing landed${r.refusals.length ? `: ${r.refusals.map((x) => x.reason).join('; ')}` : ''}`,
          ].join('\n'),
        );
        // Nothing to merge is not a failure: exit 0, and the line says so (never "landed").
        if ((!r.landed && !nothingOnly) || r.conflicted.length) process.exitCode = 1;
      }),
    );
}
