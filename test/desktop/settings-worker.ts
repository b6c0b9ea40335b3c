/** Test child: patches `.thclaws/settings.json` of each workspace given, in order, as a dashboard toggle does. */
import { ProjectSettingsFile } from '../../src/main/host/settings-file.js';

const [who, ...dirs] = process.argv.slice(2);
// Start together: say we are loaded, then wait for the parent's go (a line on stdin) — no polling, no clock.
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
process.stdin.destroy();
for (const dir of dirs) {
  try {
    await new ProjectSettingsFile(dir).patch({ teamEnabled: Number(who) % 2 === 0 });
  } catch (err) {
    process.stdout.write(`${dir}: ${(err as Error).message}\n`);
  }
}
