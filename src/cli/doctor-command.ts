/** `thclaws doctor`: what this machine has for thclaws (sandbox, tmux, git, ripgrep, Chromium, Electron), each with its fix. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Command } from 'commander';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** What to do when not ok. */
  fix?: string;
  /** What the missing piece costs. */
  impact?: string;
}

const apt = (pkg: string): string => (process.platform === 'darwin' ? `brew install ${pkg}` : `apt-get install -y ${pkg}`);

function version(bin: string, args: string[] = ['--version']): string | null {
  try {
    return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 }).trim().split('\n')[0] ?? '';
  } catch {
    return null;
  }
}

function tool(name: string, bin: string, pkg: string, impact: string, args?: string[]): Check {
  const v = version(bin, args);
  return v !== null ? { name, ok: true, detail: v } : { name, ok: false, detail: `${bin} not found`, fix: apt(pkg), impact };
}

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

function chromium(): Check {
  const found = [process.env.CHROMIUM_PATH, ...CHROMIUM].find((p): p is string => !!p && existsSync(p));
  if (found) return { name: 'chromium', ok: true, detail: found };
  return { name: 'chromium', ok: false, detail: 'no Chromium or Chrome found', fix: `${apt('chromium')} (or set CHROMIUM_PATH)`, impact: 'the dashboard end-to-end tests and the web dashboard in a browser' };
}

function electron(): Check {
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = path.join(dir, 'path.txt');
    const bin = existsSync(pathFile) ? path.join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()) : null;
    if (bin && existsSync(bin)) return { name: 'electron', ok: true, detail: bin };
    return { name: 'electron', ok: false, detail: 'the Electron binary was not downloaded', fix: 'node scripts/postinstall.mjs (or npm ci without ELECTRON_SKIP_BINARY_DOWNLOAD)', impact: 'the desktop app; the CLI and the web dashboard work without it' };
  } catch {
    return { name: 'electron', ok: false, detail: 'the electron package is not installed', fix: 'npm ci in the thclaws checkout', impact: 'the desktop app' };
  }
}

async function sandbox(): Promise<Check> {
  const { probeSandbox } = await import('../core/sandbox/runtime.js');
  const s = await probeSandbox();
  if (s.state === 'os') return { name: 'sandbox', ok: true, detail: `${s.detail}: Bash runs in the OS sandbox` };
  const reason = s.state === 'guards-only' ? s.reason : 'not probed';
  return { name: 'sandbox', ok: false, detail: reason, fix: s.state === 'guards-only' ? s.fix : '', impact: 'Bash runs with the role guards only (setting sandbox: "required" refuses it)' };
}

export async function runChecks(): Promise<Check[]> {
  return [
    await sandbox(),
    tool('tmux', 'tmux', 'tmux', 'teammates run as background processes instead of panes', ['-V']),
    tool('git', 'git', 'git', 'no worktrees, no merges: teams cannot run'),
    tool('ripgrep', 'rg', 'ripgrep', 'the OS sandbox cannot start on Linux'),
    chromium(),
    electron(),
  ];
}

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check the sandbox, tmux, git, ripgrep, Chromium and the Electron binary (exit 0 all present, 1 something missing)')
    .option('--json', 'print the checks as JSON')
    .option('--remote <url>', "the checks of another machine (ssh://[user@]host[:port]/path), run there through your own ssh")
    .option('--remote-bin <program>', 'with --remote: the thclaws program there (default: the setting remote.bin, else thclaws)')
    .action(async (opts: { json?: boolean; remote?: string; remoteBin?: string }) => {
      if (opts.remote !== undefined) {
        const { doctorRemote } = await import('./doctor-remote.js');
        process.exitCode = await doctorRemote(opts.remote, { json: opts.json, ...(opts.remoteBin ? { bin: opts.remoteBin } : {}) });
        return;
      }
      const checks = await runChecks();
      if (opts.json) process.stdout.write(`${JSON.stringify(checks)}\n`);
      else {
        for (const c of checks) {
          process.stdout.write(`${c.ok ? 'ok     ' : 'MISSING'}  ${c.name.padEnd(9)} ${c.detail}\n`);
          if (!c.ok) process.stdout.write(`         ${''.padEnd(9)} fix: ${c.fix}\n         ${''.padEnd(9)} without it: ${c.impact}\n`);
        }
      }
      process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
    });
}
