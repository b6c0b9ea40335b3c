/** Test child: patches `.thclaws/settings.json` of each workspace given, in order, as a dashboard toggle does. */
import fs from 'node:fs';
import { ProjectSettingsFile } from '../../src/main/host/settings-file.js';

const [who, go, ...dirs] = process.argv.slice(2);
// Start together: wait for the parent's go file.
while (!fs.existsSync(go!)) await new Promise((r) => setTimeout(r, 5));
for (const dir of dirs) {
  try {
    await new ProjectSettingsFile(dir).patch({ teamEnabled: Number(who) % 2 === 0 });
  } catch (err) {
    process.stdout.write(`${dir}: ${(err as Error).message}\n`);
  }
}
