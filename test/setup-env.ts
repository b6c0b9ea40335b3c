/**
 * Every test file runs machine-independent: its own empty HOME and XDG_CONFIG_HOME, and no ANTHROPIC_* or
 * THCLAWS_* from the developer's shell (a user settings file or a key must never change a result).
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'thclaws-home-')));
process.env.HOME = home;
process.env.XDG_CONFIG_HOME = path.join(home, '.config');
for (const key of Object.keys(process.env)) {
  if (key.startsWith('ANTHROPIC_') || key.startsWith('THCLAWS_')) delete process.env[key];
}
