import { CommanderError } from 'commander';
import { CliError } from './errors.js';
import { buildProgram } from './program.js';

async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and --version exit 0; usage errors were already printed by commander as one line.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    if (err instanceof CliError) {
      process.stderr.write(`thclaws: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`thclaws: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}

// A failed run ends even when a handle stays open (a teammate's store link to the lead's host): its error is said.
void main(process.argv).then(() => {
  if (process.exitCode) setTimeout(() => process.exit(), 2000).unref();
});
