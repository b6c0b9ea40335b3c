/**
 * The demo team: the person's prompt to the lead and the scripted model's turns (lead and teammates alike),
 * shared by `npm run demo` (headless) and the live demo in the dashboard.
 */

export const PROMPT =
  'Build a tiny web app with a team. Create team "demo": backend (role API, isolation worktree), frontend (role UI, isolation worktree), qa (role review). ' +
  'Tasks: 1 "Build the API" for backend (api/server.js exporting a /health handler), 2 "Build the UI" for frontend (ui/index.html calling /health), ' +
  '3 "Review" for qa, blocked by 1 and 2. Spawn all three. When qa has reviewed, dry-run TeamMerge, then merge.';

/** The lead's last words in the dashboard demo, where the person reviews and merges. */
export const READY_TO_LAND = 'Both branches merge cleanly. Their changes are open in the dashboard: review them, then press Merge to land them on main (the checks run first).';

/** The live demo in the dashboard: the same team, and the person lands the work from the merge panel. */
export const DASHBOARD_PROMPT = PROMPT.replace('When qa has reviewed, dry-run TeamMerge, then merge.', 'When qa has reviewed, dry-run TeamMerge and leave the merge to me.');

const sh = (dir: string, file: string, body: string, msg: string): string => `mkdir -p ${dir} && printf '%s\\n' '${body}' > ${dir}/${file} && git add -A && git commit -qm '${msg}'`;
/** The scripted model's turns; `dashboard` (the live demo): frontend plans first (plan mode). */
export const teamScript = (dashboard = false): { rules: unknown[]; fallback: unknown[] } => ({
  rules: [
    {
      match: 'Build a tiny web app with a team',
      turns: [
        {
          text: 'I will set up the team.',
          tool_calls: [
            {
              name: 'TeamCreate',
              input: {
                name: 'demo',
                description: 'a tiny web app',
                agents: [
                  { name: 'backend', role: 'API', prompt: 'You own the API in your worktree.', isolation: 'worktree' },
                  { name: 'frontend', role: 'UI', prompt: 'You own the UI in your worktree.', isolation: 'worktree' },
                  { name: 'qa', role: 'review', prompt: 'You review finished work.' },
                ],
              },
            },
          ],
        },
        {
          text: 'Posting the tasks.',
          tool_calls: [
            { name: 'TeamTaskCreate', input: { subject: 'Build the API', description: 'api/server.js with a /health handler', owner: 'backend' } },
            { name: 'TeamTaskCreate', input: { subject: 'Build the UI', description: 'ui/index.html that calls /health', owner: 'frontend' } },
            { name: 'TeamTaskCreate', input: { subject: 'Review', description: 'review api/ and ui/', owner: 'qa', blocked_by: ['1', '2'] } },
          ],
        },
        { text: 'Starting the teammates.', tool_calls: ['backend', 'frontend', 'qa'].map((name) => ({ name: 'SpawnTeammate', input: { name, ...(dashboard && name === 'frontend' ? { plan_mode_required: true } : {}) } })) },
        { text: dashboard ? 'The team is at work; when qa has reviewed I will check that the branches merge.' : 'The team is at work; I will merge when qa has reviewed.' },
      ],
    },
    {
      match: 'Task #1 —',
      turns: [
        { text: 'Writing the API.', tool_calls: [{ name: 'Bash', input: { command: sh('api', 'server.js', "export const health = () => ({ ok: true });", 'api: /health handler') } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'api/server.js: /health handler, committed on team/backend' } }] },
        { text: 'API done.' },
      ],
    },
    {
      match: 'Task #2 —',
      turns: [
        ...(dashboard ? [{ text: 'Planning the UI first.', tool_calls: [{ name: 'SubmitPlan', input: { plan: '# Plan: the UI\n\n1. **ui/index.html**: one page that calls `/health`\n2. commit it on `team/frontend`\n3. complete task #2 with a summary' } }] }] : []),
        { text: 'Writing the UI.', tool_calls: [{ name: 'Bash', input: { command: sh('ui', 'index.html', '<script>fetch("/health")</script>', 'ui: page calling /health') } }, { name: 'TeamTaskComplete', input: { task_id: '2', summary: 'ui/index.html calls /health, committed on team/frontend' } }] },
        { text: 'UI done.' },
      ],
    },
    {
      match: 'Task #3 —',
      turns: [
        { text: 'Reviewing both branches.', tool_calls: [{ name: 'Bash', input: { command: 'git log --oneline --all -- api ui' } }, { name: 'TeamTaskComplete', input: { task_id: '3', summary: 'reviewed: API and UI agree on /health' } }] },
        { text: 'Review done.' },
      ],
    },
    dashboard
      ? // In the dashboard the person lands the work: the lead checks that it merges and hands over to the review.
        { match: '/task #3/', turns: [{ text: 'qa is done: a dry run first.', tool_calls: [{ name: 'TeamMerge', input: { dry_run: true } }] }, { text: READY_TO_LAND }] }
      : { match: '/task #3/', turns: [{ text: 'qa is done: dry run first, then merge.', tool_calls: [{ name: 'TeamMerge', input: { dry_run: true } }, { name: 'TeamMerge', input: {} }] }, { text: 'Merged: the API and the UI are on main.' }] },
  ],
  fallback: [{ text: 'Noted.' }],
});
