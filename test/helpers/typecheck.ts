/** `tsc --strict` over generated client code and a program using it (the generated-client tests). */
import ts from 'typescript';
import { ROOT } from './processes.js';

/** The diagnostics of a strict, emit-free program over `files` (file names relative to the checkout). */
export function strictDiagnostics(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? `${d.file.fileName.replace(ROOT, '')}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
