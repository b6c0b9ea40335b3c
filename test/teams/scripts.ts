/** Scripted-provider scripts of the team tests and the demo: one file drives the lead and every teammate. */
export function teamScript(opts: { mergeOn?: string } = {}) {
  const commit = (dir: string, file: string, body: string, msg: string) => `mkdir -p ${dir} && printf '%s\\n' '${body}' > ${dir}/${file} && git add -A && git commit -qm '${msg}'`;
  return {
    rules: [
      {
        match: 'build the app',
        turns: [
          {
            text: 'Creating the team.',
            tool_calls: [
              {
                name: 'TeamCreate',
                input: {
                  name: 'demo',
                  agents: [
                    { name: 'backend', role: 'API', prompt: 'You build the API.', isolation: 'worktree' },
                    { name: 'frontend', role: 'UI', prompt: 'You build the UI.', isolation: 'worktree' },
                    { name: 'qa', role: 'QA', prompt: 'You review.' },
                  ],
                },
              },
            ],
          },
          {
            text: 'Posting tasks.',
            tool_calls: [
              { name: 'TeamTaskCreate', input: { subject: 'Build the API', description: 'api/server.js', owner: 'backend' } },
              { name: 'TeamTaskCreate', input: { subject: 'Build the UI', description: 'ui/index.html', owner: 'frontend' } },
              { name: 'TeamTaskCreate', input: { subject: 'Review', description: 'check both', owner: 'qa', blocked_by: ['1', '2'] } },
            ],
          },
          { text: 'Spawning.', tool_calls: [{ name: 'SpawnTeammate', input: { name: 'backend' } }, { name: 'SpawnTeammate', input: { name: 'frontend' } }, { name: 'SpawnTeammate', input: { name: 'qa' } }] },
          { text: 'The team is working.' },
        ],
      },
      { match: 'Task #1 —', turns: [{ text: 'Building the API.', tool_calls: [{ name: 'Bash', input: { command: commit('api', 'server.js', 'export const api = 1;', 'backend: api') } }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'API built' } }] }, { text: 'done' }] },
      { match: 'Task #2 —', turns: [{ text: 'Building the UI.', tool_calls: [{ name: 'Bash', input: { command: commit('ui', 'index.html', '<h1>demo</h1>', 'frontend: ui') } }, { name: 'TeamTaskComplete', input: { task_id: '2', summary: 'UI built' } }] }, { text: 'done' }] },
      { match: 'Task #3 —', turns: [{ text: 'Reviewing.', tool_calls: [{ name: 'TeamTaskComplete', input: { task_id: '3', summary: 'looks good' } }] }, { text: 'done' }] },
      { match: opts.mergeOn ?? '/task #3/', turns: [{ text: 'Merging.', tool_calls: [{ name: 'TeamMerge', input: { dry_run: true } }, { name: 'TeamMerge', input: {} }] }, { text: 'Merged.' }] },
    ],
    fallback: [{ text: 'Noted.' }],
  };
}
