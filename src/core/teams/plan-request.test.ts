import { describe, expect, it } from 'vitest';
import { planRequestIn } from './plan-request.js';

describe('plan request phrases in the person\'s prompt', () => {
  it.each([
    ['Create a team of three and have them plan first.', 'have them plan first'],
    ['build the parser; make the teammates plan before coding', 'make the teammates plan before'],
    ['Split the work. Require plan approval.', 'Require plan approval'],
    ['plan before coding please', 'plan before coding'],
    ['Spawn alice and bob with plan approval', 'with plan approval'],
    ['I want to approve their plans first', 'approve their plans first'],
    ['run them in plan mode', 'in plan mode'],
    ['no coding until I approve the plan', 'no coding until I approve the plan'],
    ['Ask each of them to submit a plan first', 'Ask each of them to submit a plan first'],
  ])('%s → asks', (text, phrase) => {
    expect(planRequestIn(text)).toEqual({ phrase });
  });

  it.each([
    'fix the flaky test in the planner module',
    'write the plan parser and its tests',
    'implement the floor plan renderer first',
    'Create a team of three to refactor the CLI',
  ])('%s → says nothing', (text) => {
    expect(planRequestIn(text)).toBeUndefined();
  });

  it.each(['spawn carol, no plan approval this time', 'skip planning, just fix it', "you don't need to plan first"])('%s → off', (text) => {
    expect(planRequestIn(text)).toBe('off');
  });
});
