/** `thclaws doctor --remote <url>`: the other machine's own doctor, run through the same ssh the dashboard uses. */
import { spawn } from 'node:child_process';
import { CliError } from './errors.js';
import { VERSION } from './version.js';

/**
 * Runs `<bin> doctor` on the remote: each of its lines said with the remote's label, its exit code kept (0 all
 * present, 1 something missing). No thclaws there, or ssh failing, is one line naming the remote.
 */
export async function doctorRemote(url: string, opts: { bin?: string; json?: boolean }, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [{ parseRemoteUrl, shellQuote, sshCommand }, { remoteSettings }, { isSecretEnvName }] = await Promise.all([import('../main/daemon/remote-url.js'), import('../main/daemon/remote-target.js'), import('../main/daemon/host-client.js')]);
  let remote: ReturnType<typeof parseRemoteUrl>;
  try {
    remote = parseRemoteUrl(url);
  } catch (err) {
    throw new CliError(`--remote: ${(err as Error).message.split('\n')[0]!}`);
  }
  const settings = remoteSettings(env);
  const bin = opts.bin ?? settings.bin ?? 'thclaws';
  const [ssh, ...sshArgs] = sshCommand(env, settings);
  // As the dashboard's link (ssh-link.ts sshArgv): `--` before the host, so nothing after it is read as an option.
  const argv = [...sshArgs, '-T', ...(remote.port ? ['-p', String(remote.port)] : []), ...(remote.user ? ['-l', remote.user] : []), '--', remote.host, [bin, 'doctor', ...(opts.json ? ['--json'] : [])].map(shellQuote).join(' ')];
  // None of this machine's credentials go to ssh (whose SendEnv could pass them on).
  const sshEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !isSecretEnvName(k)));
  const child = spawn(ssh!, argv, { env: sshEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', (e) => reject(new CliError(`cannot run ${ssh} to reach ${remote.label}: ${e.message}`)));
    child.once('close', (c) => resolve(c ?? 1));
  });
  const lastErr = err.trim().split('\n').pop() ?? '';
  // 127: the remote shell found no such program; 255: ssh itself failed (unreachable, refused, no key).
  if (code === 127) throw new CliError(`${remote.label} has no ${bin} (${lastErr || 'command not found'}): install it there with npm i -g thclaws@${VERSION}, or name it with --remote-bin`);
  if (code === 255 || (code !== 0 && code !== 1)) throw new CliError(`cannot check ${remote.label} (${ssh} exited ${code}): ${lastErr || 'no reason given'}`);
  if (opts.json) process.stdout.write(`${JSON.stringify({ remote: remote.label, checks: JSON.parse(out) as unknown })}\n`);
  else {
    process.stdout.write(`thclaws doctor on ${remote.label} (through ${ssh}):\n`);
    for (const line of out.split('\n').filter(Boolean)) process.stdout.write(`${remote.label}: ${line}\n`);
  }
  return code;
}
