/** `thclaws dashboard --claude-code`: the dashboard's server over Claude Code's own teams only (no thclaws host started). */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../host/package-root.js';
import { startDashboardServer, type DashboardServer } from '../web/server.js';
import { ClaudeCodeViews, type ClaudeCodeViewsOptions } from './views.js';

export async function runClaudeCodeDashboard(opts: ClaudeCodeViewsOptions & { port?: number; host?: string; token?: string; rendererDir?: string }): Promise<DashboardServer & { views: ClaudeCodeViews }> {
  const rendererDir = opts.rendererDir ?? path.join(packageRoot(), 'out', 'renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html'))) throw new Error(`the dashboard is not built (${rendererDir}/index.html missing): run npm run build:renderer`);
  const views = new ClaudeCodeViews(opts);
  // Read once before serving: a folder that cannot be read at all fails here, in one line.
  await views.read();
  const server = await startDashboardServer({ manager: views, rendererDir, port: opts.port, host: opts.host, token: opts.token });
  return { ...server, views };
}
