/** The parts of the test oracles' APIs these tests call (neither package ships types that resolve here). */
declare module 'yauzl' {
  import type { Readable } from 'node:stream';
  export interface Entry {
    fileName: string;
  }
  export interface ZipFile {
    on(event: 'entry', listener: (entry: Entry) => void): this;
    on(event: 'end', listener: () => void): this;
    readEntry(): void;
    openReadStream(entry: Entry, callback: (err: Error | null, stream: Readable) => void): void;
  }
  export function fromBuffer(buffer: Buffer, options: { lazyEntries: boolean }, callback: (err: Error | null, zip: ZipFile) => void): void;
}

declare module 'postman-collection' {
  export class Item {
    name: string;
    request: { method: string; url: { getPath(): string } };
  }
  export class Collection {
    constructor(definition: unknown);
    items: { map<T>(fn: (item: { name: string }) => T): T[] };
    forEachItem(callback: (item: Item) => void): void;
  }
}
