/** Test child: one of the settings file's writers, `rounds` edits of its own key, started on the parent's go. */
import { addAllowRule, addTeammateAllowRule, editPermissionRules, projectSettingsPath } from '../../src/core/agent/settings.js';
import { ProjectSettingsFile } from '../../src/main/host/settings-file.js';

const [writer, dir, rounds] = process.argv.slice(2) as [string, string, string];
const edits: Record<string, (i: number) => Promise<unknown>> = {
  // The dashboard's settings form (settings.json).
  dashboard: (i) => new ProjectSettingsFile(dir).patch({ checks: [`echo ${i}`] }),
  // The Agent SDK's PermissionUpdate to projectSettings (settings.json).
  sdk: (i) => editPermissionRules(projectSettingsPath(dir), 'allow', (list) => [...list, `Read(a${i})`]),
  // The lead's "always" answer (settings.local.json).
  always: (i) => addAllowRule(dir, `Bash(x${i})`),
  // A teammate's "always" answer (settings.local.json).
  teammate: (i) => addTeammateAllowRule(dir, `Bash(t${i})`, 'alice'),
};
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
process.stdin.destroy();
for (let i = 0; i < Number(rounds); i++) await edits[writer]!(i);
