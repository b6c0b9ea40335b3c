import type { Command } from 'commander';

/** `thclaws guard`. Filled in by the guard issue. */
export function registerGuardCommand(_program: Command): void {}
