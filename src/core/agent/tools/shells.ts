/** Background shells started by Bash `run_in_background`, read by BashOutput, ended by KillShell. */
export class ShellRegistry {}
