/** A contract version file obsim cannot serve: the file, an RFC 6901 pointer into it, what is wrong. */
export class ContractFileError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly problem: string,
  ) {
    super(`contract version ${file}${pointer === '' ? '' : ` at ${pointer}`}: ${problem}`);
  }
}
