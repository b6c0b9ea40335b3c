/**
 * Destructive commands run for real through the Bash tool of a lead and of a teammate inside the OS sandbox,
 * on a scratch workspace. The role guard is left out here (commands it would refuse reach the sandbox); the
 * full stack is tested at the end.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../../src/core/agent/permissions.js';
import { builtinTools } from '../../src/core/agent/tools/index.js';
import type { ToolContext } from '../../src/core/agent/types.js';
import { createCommandGuard } from '../../src/core/guard/index.js';
import type { Role } from '../../src/core/guard/types.js';
import { createRoleSandbox, sandboxSettings, type RoleSandbox } from '../../src/core/sandbox/index.js';
import { git } from '../guard/git-repo.js';
import { sandboxWorkspace, type SandboxWorkspace } from './team-workspace.js';

const tools = builtinTools();
let n = 0;

describe.skipIf(process.env.THCLAWS_SKIP_SANDBOX_TESTS === '1')('OS sandbox under the Bash tool', () => {
  let ws: SandboxWorkspace;
  let lead: ToolContext;
  let alice: ToolContext;
  let before: { ws: Record<string, string>; bob: Record<string, string>; state: string };

  const ctxFor = (role: Role, cwd: string, agentName?: string, withGuard = false): ToolContext => {
    const sandbox: RoleSandbox = createRoleSandbox({ role, workspaceRoot: ws.ws, cwd, ...(agentName ? { agentName } : {}), gitCommonDir: path.join(ws.ws, '.git') }, sandboxSettings({ sandbox: 'required' }));
    return {
      cwd,
      projectRoot: ws.ws,
      role,
      signal: new AbortController().signal,
      permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }),
      sandbox,
      ...(withGuard ? { guard: createCommandGuard(role, { workspaceRoot: ws.ws, cwd, ...(agentName ? { agentName, branch: `team/${agentName}` } : { branch: 'main' }) }) } : {}),
    };
  };
  const bash = (ctx: ToolContext, command: string) => runToolCall({ type: 'tool_use', id: `b${++n}`, name: 'Bash', input: { command } }, tools, ctx);
  const intact = () => {
    expect(ws.snapshot(ws.ws)).toEqual(before.ws);
    expect(ws.snapshot(ws.bob)).toEqual(before.bob);
    expect(readFileSync(path.join(ws.ws, '.thclaws/state/team/config.json'), 'utf8')).toBe(before.state);
  };

  beforeAll(() => {
    Object.assign(process.env, { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e.x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e.x' });
    ws = sandboxWorkspace();
    lead = ctxFor('lead', ws.ws, 'lead');
    alice = ctxFor('teammate', ws.alice, 'alice');
    before = { ws: ws.snapshot(ws.ws), bob: ws.snapshot(ws.bob), state: readFileSync(path.join(ws.ws, '.thclaws/state/team/config.json'), 'utf8') };
  });
  afterAll(() => ws.cleanup());

  describe('lead', () => {
    it('rm -rf src: the files stay and the model is told the rule and what to do instead', async () => {
      const r = await bash(lead, 'rm -rf src');
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/\[sandbox\] write refused: .*src.* — the lead's workspace is read-only: .*SendMessage/);
      intact();
    });

    it('find -delete, an interpreter deleting a tree, a script file deleting it', async () => {
      await bash(lead, 'find src -type f -delete');
      const node = await bash(lead, `node -e "require('fs').rmSync('src', { recursive: true, force: true })"`);
      expect(node.content).toMatch(/\[sandbox\] write refused/);
      const script = await bash(lead, `printf '%s' "require('fs').rmSync(process.argv[2], { recursive: true })" > "$TMPDIR/wipe.js" && node "$TMPDIR/wipe.js" src`);
      expect(script.content).toMatch(/EROFS|read-only/i);
      intact();
    });

    it('a redirect over a tracked file, a write into a teammate worktree, .thclaws/', async () => {
      const r = await bash(lead, 'echo pwned > a.txt');
      expect(r.content).toMatch(/write refused: .*a\.txt/);
      const wt = await bash(lead, 'echo x > .worktrees/bob/bob.txt');
      expect(wt.content).toMatch(/teammates' worktrees are read-only for the lead/);
      const st = await bash(lead, 'echo {} > .thclaws/state/team/config.json');
      expect(st.content).toMatch(/\.thclaws\/ is read-only from Bash/);
      intact();
    });

    it('a git merge that would rewrite workspace files fails cleanly: main does not move, the model is told to use TeamMerge', async () => {
      const head = git(ws.ws, 'rev-parse', 'main');
      const r = await bash(lead, 'git merge --no-edit team/alice');
      expect(r.isError).toBe(true);
      // It stops at git's own files (ORIG_HEAD) or at the first workspace file, whichever git writes first.
      expect(r.content).toMatch(/\[sandbox\] write refused: .*(alice\.txt — the lead's workspace is|\.git\/ORIG_HEAD\.lock — git's control files are) read-only: .*TeamMerge/);
      expect(git(ws.ws, 'rev-parse', 'main')).toBe(head);
      expect(existsSync(path.join(ws.ws, '.git/MERGE_HEAD'))).toBe(false);
      intact();
    });

    it('git status/log/diff work, and the declared build directories and scratch space are writable', async () => {
      const s = await bash(lead, 'git status --short && git log --oneline -1 && git diff HEAD~1 --stat');
      expect(s.isError).toBeFalsy();
      expect(s.content).toMatch(/sources/);
      const b = await bash(lead, 'echo cached > node_modules/x.txt && echo scratch > "$TMPDIR/x" && cat node_modules/x.txt "$TMPDIR/x"');
      expect(b.isError).toBeFalsy();
      expect(b.content).toBe('cached\nscratch\n[exit code 0]');
    });
  });

  describe('teammate', () => {
    it("cannot write into another teammate's worktree or the lead's checkout", async () => {
      const bob = await bash(alice, 'echo x > ../bob/bob.txt');
      expect(bob.content).toMatch(/other teammates' worktrees are read-only/);
      await bash(alice, 'rm -rf ../bob/');
      const main = await bash(alice, `node -e "require('fs').rmSync('${ws.ws}/src', { recursive: true })"`);
      expect(main.content).toMatch(/the lead's checkout is read-only for teammates/);
      await bash(alice, 'find ../.. -path "*/.worktrees" -prune -o -name "*.ts" -print -delete');
      // bob's HEAD lives in the shared git directory, which alice may otherwise write (her commits need it).
      const bobHead = readFileSync(path.join(ws.ws, '.git/worktrees/bob/HEAD'), 'utf8');
      const head = await bash(alice, `echo "ref: refs/heads/main" > ${ws.ws}/.git/worktrees/bob/HEAD`);
      expect(head.content).toMatch(/other teammates' worktree metadata is read-only/);
      expect(readFileSync(path.join(ws.ws, '.git/worktrees/bob/HEAD'), 'utf8')).toBe(bobHead);
      intact();
    });

    it('writing through a symlink (dangling too) into another worktree is refused', async () => {
      const r = await bash(alice, 'ln -sf ../bob/bob.txt link-to-bob && echo pwned > link-to-bob');
      expect(r.content).toMatch(/write refused: .*\/bob\/bob\.txt — other teammates' worktrees are read-only/);
      const d = await bash(alice, 'ln -sf ../bob/new.txt dangling && echo x > dangling');
      expect(d.content).toMatch(/write refused: .*\/bob\/new\.txt — other teammates' worktrees are read-only/);
      rmSync(path.join(ws.alice, 'link-to-bob'));
      rmSync(path.join(ws.alice, 'dangling'));
      expect(existsSync(path.join(ws.bob, 'new.txt'))).toBe(false);
      intact();
    });

    it('builds, tests and commits in its own worktree', async () => {
      const t = await bash(alice, 'npm test');
      expect(t.isError, t.content).toBeFalsy();
      expect(t.content).toMatch(/tests passed/);
      expect(existsSync(path.join(ws.alice, 'dist/out.js'))).toBe(true);
      const c = await bash(alice, 'echo more >> alice.txt && git add -A && git commit -q -m "alice works" && git log --oneline -1');
      expect(c.isError, c.content).toBeFalsy();
      expect(c.content).toMatch(/alice works/);
      expect(git(ws.ws, 'log', '--oneline', '-1', 'team/alice')).toMatch(/alice works/);
      intact();
    });
  });

  describe('a teammate process living in its worktree (process cwd = the worktree)', () => {
    it('git add -A sees no placeholder files and commits; the shared hooks and config stay read-only', async () => {
      const back = process.cwd();
      process.chdir(ws.alice);
      try {
        const c = await bash(alice, 'echo again >> alice.txt && git add -A && git commit -q -m "from inside" && git status --porcelain && echo clean');
        expect(c.isError, c.content).toBeFalsy();
        expect(c.content).toBe('clean\n[exit code 0]');
        const hook = await bash(alice, `printf '#!/bin/sh\nrm -rf /\n' > ${ws.ws}/.git/hooks/post-merge`);
        expect(hook.content).toMatch(/git hooks are read-only/);
        const cfg = await bash(alice, 'git config core.hooksPath /tmp/evil');
        expect(cfg.isError).toBe(true);
        expect(readFileSync(path.join(ws.ws, '.git/config'), 'utf8')).not.toMatch(/hooksPath/);
        expect(existsSync(path.join(ws.ws, '.git/hooks/post-merge'))).toBe(false);
      } finally {
        process.chdir(back);
      }
      expect(process.cwd()).toBe(back);
    });
  });

  describe('the command as written', () => {
    it('quotes, expansions, newlines, heredocs and the exit status survive the wrap', async () => {
      const cmd = `printf '%s|%s\\n' "it's" 'a "b"' && echo "$((6*7))" \\
 && cat <<'EOF'
$HOME stays literal \\n
EOF
exit 3`;
      const r = await bash(lead, cmd);
      expect(r.content).toBe(`it's|a "b"\n42\n$HOME stays literal \\n\n[exit code 3]`);
    });

    it('a build directory created after the first command becomes writable (the cached wrap follows the disk)', async () => {
      const first = await bash(lead, 'echo x > coverage/report.txt');
      expect(first.isError).toBe(true);
      mkdirSync(path.join(ws.ws, 'coverage'));
      const second = await bash(lead, 'echo x > coverage/report.txt && cat coverage/report.txt');
      expect(second.isError, second.content).toBeFalsy();
      expect(second.content).toBe('x\n[exit code 0]');
      rmSync(path.join(ws.ws, 'coverage'), { recursive: true });
    });
  });

  describe('solo', () => {
    it('a project without git can git init and commit; the new hooks are then read-only', async () => {
      const proj = path.join(ws.ws, '..', `solo-${process.pid}`);
      mkdirSync(proj, { recursive: true });
      const solo: ToolContext = { ...lead, cwd: proj, projectRoot: proj, role: 'solo', sandbox: createRoleSandbox({ role: 'solo', workspaceRoot: proj, cwd: proj }, sandboxSettings({ sandbox: 'required' })) };
      const r = await bash(solo, 'git init -q && echo hi > a.txt && git add a.txt && git commit -qm first && git log --oneline | wc -l');
      expect(r.isError, r.content).toBeFalsy();
      expect(r.content).toMatch(/^1$/m);
      const hook = await bash(solo, 'echo "#!/bin/sh" > .git/hooks/pre-commit');
      expect(hook.content).toMatch(/git hooks are read-only/);
      rmSync(proj, { recursive: true, force: true });
    });
  });

  describe('everyone', () => {
    it('cannot signal processes outside its sandbox (the agent itself included)', async () => {
      const r = await bash(alice, `kill -9 ${process.pid}; kill -9 $PPID; echo still-here`);
      expect(r.content).toMatch(/still-here/);
      expect(r.content).toMatch(/No such process/);
    });

    it('cannot read credential directories; network and other reads stay open', async () => {
      const home = path.join(ws.ws, '..', `home-${process.pid}`);
      mkdirSync(path.join(home, '.ssh'), { recursive: true });
      writeFileSync(path.join(home, '.ssh/id_ed25519'), 'SECRET-KEY\n');
      const sandbox = createRoleSandbox({ role: 'solo', workspaceRoot: ws.ws, cwd: ws.ws, home }, sandboxSettings({ sandbox: 'required' }));
      const solo: ToolContext = { ...lead, role: 'solo', sandbox };
      const r = await bash(solo, `cat ${home}/.ssh/id_ed25519; ls -A ${home}/.ssh | wc -l; cat ${ws.ws}/a.txt`);
      expect(r.content).not.toMatch(/SECRET-KEY/);
      expect(r.content).toMatch(/No such file/);
      expect(r.content).toMatch(/^0$/m);
      expect(r.content).toMatch(/one/);
      expect(readFileSync(path.join(home, '.ssh/id_ed25519'), 'utf8')).toBe('SECRET-KEY\n');
    });
  });

  describe('full stack: guard in front, sandbox behind', () => {
    it('the guard refuses first; what it lets through the sandbox still stops', async () => {
      const leadFull = ctxFor('lead', ws.ws, 'lead', true);
      const r = await bash(leadFull, 'rm -rf src');
      expect(r.content).toMatch(/^refused: team lead may not run `rm -rf src`/);
      const aliceFull = ctxFor('teammate', ws.alice, 'alice', true);
      // A script run by name is not read by the guard: the OS sandbox is what stops this write.
      const w = await bash(aliceFull, `printf '%s' "require('fs').writeFileSync(process.argv[2], 'pwned')" > w.js && node w.js ../bob/bob.txt`);
      expect(w.content).toMatch(/other teammates' worktrees are read-only/);
      // Scripts run by name are not read by the guard: `npm run clean` is `rm -rf src build.js`.
      const clean = await bash(leadFull, 'npm run clean');
      expect(clean.content).not.toMatch(/^refused:/);
      expect(clean.content).toMatch(/\[sandbox\] write refused: .*the lead's workspace is read-only/);
      // The guard lets the lead delete scratch trees under /tmp; a symlink there into the workspace is the sandbox's case.
      const link = path.join(os.tmpdir(), `thclaws-link-${process.pid}`);
      symlinkSync(path.join(ws.ws, 'src'), link);
      try {
        const viaLink = await bash(leadFull, `rm -rf ${link}/`);
        expect(viaLink.content).not.toMatch(/^refused:/);
        expect(viaLink.content).toMatch(/\[sandbox\] write refused: .*src/);
      } finally {
        rmSync(link);
      }
      const ok = await bash(aliceFull, 'git status --short && npm run build');
      expect(ok.isError, ok.content).toBeFalsy();
      intact();
    });
  });
});
