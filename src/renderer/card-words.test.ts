import { describe, expect, it } from 'vitest';
import { alwaysSentence, cardWords, wordsText } from './card-words';

const card = (tool: string, input: unknown, detail: string | null = null) => ({ tool, detail, summary: JSON.stringify(input).slice(0, 200), input: JSON.stringify(input) });
const said = (tool: string, input: unknown, detail: string | null = null) => wordsText(cardWords(card(tool, input, detail)));

describe('an approval card in words', () => {
  it('TeamCreate names the team (strong) and each member with its role, model and where it works', () => {
    const w = cardWords(card('TeamCreate', { name: 'shop', agents: [{ name: 'alice', role: 'API', isolation: 'worktree' }, { name: 'bob', model: 'haiku' }] }));
    expect(wordsText(w)).toBe('Create team shop: alice (API, own worktree), bob (haiku, project folder)');
    expect(w.filter((r) => r.strong).map((r) => r.text)).toEqual(['shop']);
    expect(said('TeamCreate', { name: 'shop', agents: [], replace: true })).toBe('Replace the team with team shop (no members yet)');
  });

  it("SpawnTeammate: 'Start alice with: …', with its model, plan mode and folder when given; a long prompt is cut", () => {
    expect(said('SpawnTeammate', { name: 'alice', prompt: 'you own the API' })).toBe("Start alice with: 'you own the API'");
    expect(said('SpawnTeammate', { name: 'bob', model: 'opus', plan_mode_required: true, cwd: 'ui' })).toBe('Start bob (on opus, plan first, in ui)');
    const long = said('SpawnTeammate', { name: 'c', prompt: 'x'.repeat(500) });
    expect(long.length).toBeLessThan(230);
    expect(long.endsWith("…'")).toBe(true);
  });

  it('TeamMerge says what goes where, a dry run and an abort as such', () => {
    expect(said('TeamMerge', { dry_run: true })).toBe("Dry-run a merge of every teammate's branch into the current branch");
    expect(said('TeamMerge', { only: ['alice', 'bob'], into: 'main', cleanup: true })).toBe("Merge alice, bob's branches into main, then remove merged worktrees");
    expect(said('TeamMerge', { abort: true })).toBe('Back out of the merge left in progress');
  });

  it('a command or path reads as itself; any other input as its fields, never as JSON', () => {
    expect(said('Bash', { command: 'npm test' }, 'npm test')).toBe('npm test');
    expect(said('mcp__db__query', { sql: 'select 1', limit: 5 })).toBe('sql: select 1 · limit: 5');
    expect(wordsText(cardWords({ tool: 'X', detail: null, summary: 'what it does', input: null }))).toBe('what it does');
    expect(wordsText(cardWords({ tool: 'X', detail: null, summary: 's', input: '{not json' }))).toBe('s');
  });

  it('Always says what it covers, for whom, and where it is saved', () => {
    expect(alwaysSentence({ agent: 'lead', rule: 'SpawnTeammate' })).toBe('Always allow SpawnTeammate in this project — saved in .thclaws/settings.local.json');
    expect(alwaysSentence({ agent: 'alice', rule: 'Bash(npm test:*)' })).toBe('Always allow Bash(npm test:*) for alice in this project — saved in .thclaws/settings.local.json');
  });
});
