/**
 * Turns a write the OS sandbox refused (EROFS on Linux, EPERM under sandbox-exec) into one message that names
 * the rule and what to do instead. The command's own output stays as it was; this is appended.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { areaOf, type AreaRule, type SandboxPolicy } from './policy.js';

const REFUSED = /read-only file system|operation not permitted|EROFS|EPERM/i;

/**
 * Paths in the usual error shapes: `rm: cannot remove 'x': …`, `sh: 1: cannot create x: …`,
 * `error: unable to create file x: …` (git), `open 'x'`, `[Errno 30] …: 'x'`, `x: Read-only file system`.
 */
function pathsIn(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/['‘"`]([^'’"`\n]+)['’"`]/g)) out.push(m[1] as string);
  for (const m of line.matchAll(/(?:file|directory|create|open|remove|touch|write to|unlink|rename)\s+([^\s:'"`]+)\s*:/gi)) out.push(m[1] as string);
  const tail = /([^\s:'"`]+):\s*(?:Read-only file system|Operation not permitted)/i.exec(line);
  if (tail && /[./]/.test(tail[1] as string)) out.push(tail[1] as string);
  return out.filter((p) => p.length > 0 && /[\w./]/.test(p) && !/\s{2,}/.test(p) && !/^(EROFS|EPERM|error|fatal|Errno)$/i.test(p));
}

/** Where a write to `p` lands: symlinks followed (a dangling one too), the missing tail kept. */
function landing(p: string, depth = 0): string {
  if (depth > 8) return p;
  try {
    if (lstatSync(p).isSymbolicLink()) return landing(path.resolve(path.dirname(p), readlinkSync(p)), depth + 1);
    return realpathSync(p);
  } catch {
    const parent = path.dirname(p);
    return parent === p ? p : path.join(landing(parent, depth + 1), path.basename(p));
  }
}

export function explainRefusal(output: string, cwd: string, policy: SandboxPolicy): string | undefined {
  const lines = output.split('\n').filter((l) => REFUSED.test(l));
  if (lines.length === 0) return undefined;
  for (const line of lines) {
    // An absolute path is the one the write landed on (git quotes the ref name first, then the lock file).
    const found = pathsIn(line);
    for (const p of [...found.filter((f) => path.isAbsolute(f)), ...found.filter((f) => !path.isAbsolute(f))]) {
      const abs = landing(path.resolve(cwd, p));
      const area = areaOf(policy, abs);
      if (area.writable) continue;
      return `[sandbox] write refused: ${abs} — ${area.rule}: ${area.why}. ${area.instead}`;
    }
  }
  // EPERM has many causes (kill, chown…); without a refused path only a read-only file system is ours to explain.
  if (!lines.some((l) => /read-only file system|EROFS/i.test(l)) && process.platform !== 'darwin') return undefined;
  const root = policy.areas.find((a) => !a.writable && a.path !== '/' && areaOf(policy, a.path) === a && /workspace|checkout/.test(a.rule));
  const rule = root ?? (policy.areas[0] as AreaRule);
  return `[sandbox] a write was refused by the OS sandbox — ${rule.rule}: ${rule.why}. ${rule.instead}`;
}
