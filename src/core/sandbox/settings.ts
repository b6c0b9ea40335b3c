/**
 * The sandbox's settings keys. They live in the same settings files as the agent's (unknown keys are kept
 * there), and are validated here so a bad value names its key.
 */
import { z } from 'zod';

/** Build and cache directories of a project, writable for the lead so it can still build and test after a merge. */
export const DEFAULT_BUILD_DIRS = [
  'node_modules', 'dist', 'build', 'out', 'coverage', 'target', '.next', '.nuxt', '.turbo', '.cache', '.vite',
  '.pytest_cache', '__pycache__', '.mypy_cache', '.ruff_cache', '.venv', '.gradle', '.tox', 'bench/results',
] as const;

/** Credential directories no sandboxed command may read unless a project says otherwise. */
export const DEFAULT_DENY_READ = ['~/.ssh', '~/.aws', '~/.gnupg'] as const;

export const SandboxSettingsSchema = z.object({
  /** `auto`: OS sandbox when it can run, else guards only with a warning; `required`: no Bash without it; `off`: guards only. */
  sandbox: z.enum(['auto', 'required', 'off']).default('auto'),
  /** Workspace-relative directories the lead's Bash may write (build output, caches). */
  sandboxBuildDirs: z.array(z.string().min(1)).default([...DEFAULT_BUILD_DIRS]),
  /** Absent: the network is open. A list: only these domains (`*.example.com` allowed) are reachable. */
  sandboxAllowedDomains: z.array(z.string().min(1)).optional(),
  /** Paths no sandboxed command may read. */
  sandboxDenyRead: z.array(z.string().min(1)).default([...DEFAULT_DENY_READ]),
  /** Extra absolute paths every role may write (a toolchain cache, a socket directory). */
  sandboxExtraWrite: z.array(z.string().min(1)).default([]),
});

export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;

export class SandboxSettingsError extends Error {
  override name = 'SandboxSettingsError';
}

/** Reads the sandbox keys out of the merged settings object (which may hold any other keys). */
export function sandboxSettings(all: Record<string, unknown> = {}): SandboxSettings {
  const picked = Object.fromEntries(Object.keys(SandboxSettingsSchema.shape).filter((k) => all[k] !== undefined).map((k) => [k, all[k]]));
  const res = SandboxSettingsSchema.safeParse(picked);
  if (!res.success) {
    const issue = res.error.issues[0]!;
    throw new SandboxSettingsError(`invalid settings: key "${issue.path.join('.')}": ${issue.message}`);
  }
  return res.data;
}

/**
 * The sandbox settings from the two layers. A project's file comes with the repository, before anyone
 * trusted it, so it may only tighten: `sandbox: "off"` and `sandboxExtraWrite` are honoured from the user's
 * file alone, a project's `sandboxBuildDirs` may only leave out directories of the user's list (or the
 * default), and a project's `sandboxDenyRead` adds to the user's instead of replacing it.
 */
export function layeredSandboxSettings(user: Record<string, unknown>, project: Record<string, unknown>): { settings: SandboxSettings; ignored: string[] } {
  const base = sandboxSettings(user);
  const proj = sandboxSettings(project);
  const ignored: string[] = [];
  if (project.sandbox === 'off') ignored.push('sandbox: "off"');
  if (project.sandboxExtraWrite !== undefined) ignored.push('sandboxExtraWrite');
  // A project may narrow the lead's build directories, not add to them: an added one opens workspace files.
  const norm = (d: string) => d.replace(/^\.\/+/, '').replace(/\/+$/, '');
  const known = new Set(base.sandboxBuildDirs.map(norm));
  const added = project.sandboxBuildDirs !== undefined ? proj.sandboxBuildDirs.filter((d) => !known.has(norm(d))) : [];
  if (added.length > 0) ignored.push(`sandboxBuildDirs ${added.join(', ')}`);
  return {
    settings: {
      sandbox: project.sandbox !== undefined && project.sandbox !== 'off' ? proj.sandbox : base.sandbox,
      sandboxBuildDirs: project.sandboxBuildDirs !== undefined ? proj.sandboxBuildDirs.filter((d) => known.has(norm(d))) : base.sandboxBuildDirs,
      ...(proj.sandboxAllowedDomains ?? base.sandboxAllowedDomains ? { sandboxAllowedDomains: proj.sandboxAllowedDomains ?? base.sandboxAllowedDomains } : {}),
      sandboxDenyRead: [...new Set([...base.sandboxDenyRead, ...(project.sandboxDenyRead !== undefined ? proj.sandboxDenyRead : [])])],
      sandboxExtraWrite: base.sandboxExtraWrite,
    },
    ignored,
  };
}
