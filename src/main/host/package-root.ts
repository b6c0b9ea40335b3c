import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** This package's root (holding bin/thclaws), from source, the CLI bundle or an app.asar alike. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'bin', 'thclaws'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the thclaws package above ${from}`);
    dir = up;
  }
}
