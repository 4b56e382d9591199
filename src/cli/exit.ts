/** Thrown by a subcommand to end with a given exit code (main() exits with it, no stack trace). */
export class CliExit extends Error {
  constructor(
    readonly exitCode: number,
    message = '',
  ) {
    super(message);
  }
}
