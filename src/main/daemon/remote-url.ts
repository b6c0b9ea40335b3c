/** A workspace on another machine, reached over the person's own ssh. */
export interface RemoteSpec {
  /** As the person wrote it. */
  url: string;
  user?: string;
  host: string;
  port?: number;
  /** The remote folder as given: absolute, `~` or `~/…` (resolved against the remote user's home there). */
  dir: string;
  /** For messages: `user@host:port`, with only the parts given. */
  label: string;
}

/** A host name (or alias of the ssh config) and a user name as ssh takes them; never one that starts with `-`. */
const HOST = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$|^\[?[0-9A-Fa-f:.]+(?:%[A-Za-z0-9]+)?\]?$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\$?$/;

const bad = (s: string, why: string): Error => new Error(`invalid remote ${JSON.stringify(s)}: ${why} (expected ssh://[user@]host[:port]/path or [user@]host:path)`);

/**
 * `ssh://[user@]host[:port]/abs/path`, `ssh://host/~/rel` (as git reads it: the path is taken as given, `~`
 * being the remote user's home), or scp-like `[user@]host:path` (a relative path is under the remote home, as
 * git's). A host or user that ssh could read as an option (`-oProxyCommand=…`) is refused here, before any argv.
 */
export function parseRemoteUrl(s: string): RemoteSpec {
  const text = s.trim();
  let user: string | undefined;
  let host: string;
  let port: number | undefined;
  let dir: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (!text.toLowerCase().startsWith('ssh://')) throw bad(s, 'only ssh:// is understood');
    const m = /^ssh:\/\/(?:([^@/]*)@)?(\[[^\]/]*\]|[^:/]*)(?::([^/]*))?(\/.*)?$/i.exec(text);
    if (!m) throw bad(s, 'not a URL');
    user = m[1] === undefined ? undefined : decode(s, m[1]);
    host = m[2]!.startsWith('[') ? m[2]!.slice(1, -1) : m[2]!;
    if (m[3] !== undefined) {
      if (!/^\d{1,5}$/.test(m[3]) || Number(m[3]) < 1 || Number(m[3]) > 65535) throw bad(s, `port ${JSON.stringify(m[3])} is not a number from 1 to 65535`);
      port = Number(m[3]);
    }
    const p = m[4] === undefined ? '' : decode(s, m[4]);
    if (!p || p === '/') throw bad(s, 'it names no folder');
    if (/^\/~[^/]/.test(p)) throw bad(s, 'only ~ and ~/… are understood as the remote home');
    // `/~` and `/~/x` are the home and a path in it; every other path is absolute.
    dir = p === '/~' || p.startsWith('/~/') ? p.slice(1) : p;
  } else {
    const m = /^(?:([^@/:]*)@)?(\[[^\]/]*\]|[^:/]+):(.*)$/.exec(text);
    if (!m) throw bad(s, 'not a remote');
    user = m[1];
    host = m[2]!.startsWith('[') ? m[2]!.slice(1, -1) : m[2]!;
    const p = m[3]!;
    if (!p) throw bad(s, 'it names no folder');
    dir = p.startsWith('/') || p === '~' || p.startsWith('~/') ? p : `~/${p}`;
  }
  if (!host) throw bad(s, 'it names no host');
  if (host.startsWith('-') || !HOST.test(host)) throw bad(s, `${JSON.stringify(host)} is not a host name`);
  if (user !== undefined && (user.startsWith('-') || !USER.test(user))) throw bad(s, `${JSON.stringify(user)} is not a user name`);
  if (/^~[^/]/.test(dir)) throw bad(s, 'only ~ and ~/… are understood as the remote home');
  if (dir.includes('\0') || dir.includes('\n')) throw bad(s, 'the path holds a control character');
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const label = `${user ? `${user}@` : ''}${shownHost}${port ? `:${port}` : ''}`;
  return { url: text, ...(user ? { user } : {}), host, ...(port ? { port } : {}), dir, label };
}

function decode(s: string, part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw bad(s, `${JSON.stringify(part)} is not percent-encoded right`);
  }
}

/** One word for a POSIX shell (the remote's login shell runs the command ssh sends): as is when plain, else single-quoted. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_./=:@%+,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The words of a command as the person wrote it in `THCLAWS_SSH` (as git's `GIT_SSH_COMMAND`): split like a
 * shell splits words (quotes, backslashes), with nothing expanded and no shell run.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) cur += text[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} in ${JSON.stringify(text)}`);
  if (inWord) words.push(cur);
  return words;
}

/** The ssh command's words: `THCLAWS_SSH`, else the setting `remote.ssh`, else `ssh` (the person's own binary and config). */
export function sshCommand(env: NodeJS.ProcessEnv = process.env, settings?: { ssh?: string }): string[] {
  for (const [from, text] of [['THCLAWS_SSH', env.THCLAWS_SSH], ['remote.ssh', settings?.ssh]] as const) {
    if (!text?.trim()) continue;
    let words: string[];
    try {
      words = splitWords(text);
    } catch (err) {
      throw new Error(`${from}: ${(err as Error).message}`);
    }
    if (words.length) return words;
  }
  return ['ssh'];
}
