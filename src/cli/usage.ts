/** Exit codes and usage errors of the CLI. */
export const EXIT = {
  /** Everything valid / the command succeeded. */
  OK: 0,
  /** At least one file invalid or unreadable (per --fail-on), or the engine refused the input (its code is printed). */
  FAILED: 1,
  /** Usage error (unknown command or option, bad value, no such input), I/O error writing the output, missing license. */
  USAGE: 2,
  IO: 2,
} as const;

export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help to point to. */
    readonly command?: string,
    readonly exitCode: number = EXIT.USAGE,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
