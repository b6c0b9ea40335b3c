/**
 * Naming a remote workspace: the URL forms a person types, the one-line refusals, and that nothing a URL holds
 * can become an ssh option or a second remote command (the command string goes through the remote's shell).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseRemoteUrl, shellQuote, splitWords, sshCommand } from '../../src/main/daemon/remote-url.js';
import { explainSshFailure, sshArgv } from '../../src/main/daemon/ssh-link.js';
import { VERSION } from '../../src/cli/version.js';

describe('parseRemoteUrl', () => {
  it.each([
    ['ssh://box/srv/app', { host: 'box', dir: '/srv/app', label: 'box' }],
    ['ssh://me@box:2222/srv/app', { user: 'me', host: 'box', port: 2222, dir: '/srv/app', label: 'me@box:2222' }],
    ['ssh://box/~/code/app', { host: 'box', dir: '~/code/app', label: 'box' }],
    ['ssh://box/~', { host: 'box', dir: '~', label: 'box' }],
    ['ssh://box/srv/my%20app', { host: 'box', dir: '/srv/my app', label: 'box' }],
    ['ssh://me@[::1]:22/srv', { user: 'me', host: '::1', port: 22, dir: '/srv', label: 'me@[::1]:22' }],
    ['me@box.example.com:code/app', { user: 'me', host: 'box.example.com', dir: '~/code/app', label: 'me@box.example.com' }],
    ['box:/srv/app', { host: 'box', dir: '/srv/app', label: 'box' }],
    ['box:~/app', { host: 'box', dir: '~/app', label: 'box' }],
    ['me@[fe80::1%eth0]:srv', { user: 'me', host: 'fe80::1%eth0', dir: '~/srv', label: 'me@[fe80::1%eth0]' }],
    // A one-letter alias of the person's ssh config.
    ['ssh://z/srv', { host: 'z', dir: '/srv', label: 'z' }],
  ])('%s', (url, want) => {
    const r = parseRemoteUrl(url);
    expect({ ...r, url: undefined }).toEqual({ ...want, url: undefined });
    expect(r.port).toBe((want as { port?: number }).port);
    expect(r.user).toBe((want as { user?: string }).user);
  });

  it.each([
    ['ssh://-oProxyCommand=touch%20/tmp/pwned/x', '"-oProxyCommand=touch%20" is not a host name'],
    ['ssh://-oProxyCommand=id/srv', '"-oProxyCommand=id" is not a host name'],
    ['-oProxyCommand=id:/srv', '"-oProxyCommand=id" is not a host name'],
    ['ssh://-lroot@box/srv', '"-lroot" is not a user name'],
    ['ssh://box', 'it names no folder'],
    ['ssh://box/', 'it names no folder'],
    ['ssh://box:99999/srv', 'port "99999" is not a number from 1 to 65535'],
    ['ssh://box:x/srv', 'port "x" is not a number from 1 to 65535'],
    ['https://box/srv', 'only ssh:// is understood'],
    ['ssh:///srv', 'it names no host'],
    ['ssh://box/~root/x', 'only ~ and ~/… are understood as the remote home'],
    ['ssh://b;x/srv', '"b;x" is not a host name'],
    ['/just/a/path', 'not a remote'],
    ['box:', 'it names no folder'],
    ['ssh://box/a%0Ab', 'the path holds a control character'],
  ])('refuses %s in one line', (url, why) => {
    expect(() => parseRemoteUrl(url)).toThrow(new Error(`invalid remote ${JSON.stringify(url)}: ${why} (expected ssh://[user@]host[:port]/path or [user@]host:path)`));
  });
});

describe('the ssh command and the remote command', () => {
  it('THCLAWS_SSH is split into words like git\'s GIT_SSH_COMMAND (quotes, no expansion), then the setting, then ssh', () => {
    expect(sshCommand({ THCLAWS_SSH: `ssh -F '/my dir/cfg' -o "ProxyJump=a b" $HOME` })).toEqual(['ssh', '-F', '/my dir/cfg', '-o', 'ProxyJump=a b', '$HOME']);
    expect(sshCommand({}, { ssh: 'ssh -v' })).toEqual(['ssh', '-v']);
    expect(sshCommand({ THCLAWS_SSH: '  ' }, { ssh: 'ssh -v' })).toEqual(['ssh', '-v']);
    expect(sshCommand({})).toEqual(['ssh']);
    expect(() => sshCommand({ THCLAWS_SSH: `ssh -F 'open` })).toThrow(`THCLAWS_SSH: unterminated ' in "ssh -F 'open"`);
    expect(splitWords(`a\\ b "c\\"d" ''`)).toEqual(['a b', 'c"d', '']);
  });

  it("a folder with a space, a ' and shell characters reaches the remote program as one word, unexpanded", () => {
    const dir = `/srv/it's a $(touch x) ~ws; rm -rf /`;
    const argv = sshArgv(parseRemoteUrl(`ssh://me@box:2200/${encodeURIComponent(dir.slice(1))}`), { leadScript: '~/s.json', startLead: true }, ['ssh', '-F', 'cfg']);
    expect(argv.slice(0, -2)).toEqual(['ssh', '-F', 'cfg', '-T', '-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=3', '-p', '2200', '-l', 'me', '--']);
    expect(argv.at(-2)).toBe('box');
    // What the remote's shell makes of the command string: the words as they were.
    const words = execFileSync('sh', ['-c', `printf '%s\\n' ${argv.at(-1)!.replace(/^thclaws /, '')}`], { encoding: 'utf8' }).trimEnd().split('\n');
    expect(words).toEqual(['host', 'connect', '--stdio', '--dir', dir, '--lead-script', '~/s.json']);
    expect(shellQuote('plain-word_1.2/x=y')).toBe('plain-word_1.2/x=y');
    expect(shellQuote('')).toBe(`''`);
  });

  it('a host or user that starts with "-" never reaches the argv, even from a RemoteSpec made by hand', () => {
    expect(() => sshArgv({ url: 'x', host: '-oProxyCommand=id', dir: '/srv', label: 'x' }, {}, ['ssh'])).toThrow('refusing a host or user that starts with "-"');
    expect(() => sshArgv({ url: 'x', host: 'box', user: '-lroot', dir: '/srv', label: 'x' }, {}, ['ssh'])).toThrow('refusing a host or user that starts with "-"');
  });
});

describe('explainSshFailure: one line for each way a connect ends before the welcome', () => {
  const base = { label: 'me@box', ssh: 'ssh', bin: 'thclaws', timeoutMs: 20_000 };
  const reset = Object.assign(new Error('closed'), { code: 'ECONNRESET' });
  it.each([
    [{ err: reset, code: 127, stderr: 'bash: line 1: thclaws: command not found\n' }, `me@box has no thclaws on its PATH: install it there (npm i -g thclaws@${VERSION}) or name it with --remote-bin`],
    [{ err: reset, code: 127, stderr: 'sh: 1: /opt/t: not found\n', bin: '/opt/t' }, `me@box cannot run /opt/t: sh: 1: /opt/t: not found; install thclaws there (npm i -g thclaws@${VERSION})`],
    [{ err: reset, code: 255, stderr: 'me@box: Permission denied (publickey).\r\n' }, 'cannot reach me@box over ssh: me@box: Permission denied (publickey).'],
    [{ err: reset, code: 255, stderr: '' }, 'me@box: the ssh session ended before the host answered, and ssh gave no reason (ssh exit 255): was the remote side killed?'],
    [{ err: reset, code: 1, stderr: "error: too many arguments for 'host'. Expected 0 arguments but got 1.\n" }, `thclaws on me@box is too old for a remote dashboard: install npm i -g thclaws@${VERSION} there`],
    [{ err: reset, code: 1, stderr: 'thclaws: no folder /srv/x on box\n' }, 'me@box: no folder /srv/x on box'],
    [{ err: reset, code: 0, stderr: '' }, 'me@box: the remote side exited (code 0) before the host answered'],
    [{ err: Object.assign(new Error('t'), { code: 'ETIMEDOUT' }), code: null, stderr: '' }, 'me@box did not answer over ssh in 20 s'],
    [{ err: Object.assign(new Error('spawn nossh ENOENT'), { code: 'ENOENT', syscall: 'spawn nossh' }), code: null, stderr: '', ssh: 'nossh' }, 'cannot run "nossh" (the ssh command; THCLAWS_SSH names another): not found'],
    [{ err: Object.assign(new Error('the team is stopping: stopped from a dashboard'), { code: 'EHOSTSTOPPING' }), code: null, stderr: '' }, 'the team on me@box is stopping: stopped from a dashboard'],
  ])('%#: %s', (f, line) => {
    expect(explainSshFailure({ ...base, ...f })).toBe(line);
  });
});
