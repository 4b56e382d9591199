/** The parts of the converters' APIs obsim calls (neither package ships types). */
declare module 'openapi-to-postmanv2' {
  interface ConversionResult {
    result: boolean;
    reason?: string;
    output?: { type: string; data: unknown }[];
  }
  export function convertV2(
    input: { type: 'json'; data: unknown },
    options: Record<string, unknown>,
    callback: (err: Error | null, result: ConversionResult) => void,
  ): void;
}

declare module '@usebruno/converters' {
  export function openApiToBruno(spec: unknown, options?: { groupBy?: 'tags' | 'path' }): unknown;
}
