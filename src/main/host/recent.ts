import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const configFile = (name: string, env: NodeJS.ProcessEnv = process.env): string => path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config'), 'thclaws', name);

/** Recently opened workspaces, newest first, kept in the user's config dir (remote ones, `ssh://…` URLs, in a list of their own). */
export class RecentWorkspaces {
  constructor(readonly file: string = configFile('recent-workspaces.json')) {}

  /** The remote workspaces this machine's dashboards opened (`--remote`, "Open remote folder…"). */
  static remotes(env: NodeJS.ProcessEnv = process.env): RecentWorkspaces {
    return new RecentWorkspaces(configFile('recent-remotes.json', env));
  }

  list(): string[] {
    try {
      const v = JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown;
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 20) : [];
    } catch {
      return [];
    }
  }

  add(dir: string): string[] {
    const next = [dir, ...this.list().filter((d) => d !== dir)].slice(0, 20);
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(this.file, JSON.stringify(next, null, 2));
    } catch {
      // a read-only config dir only loses the recent list
    }
    return next;
  }
}
