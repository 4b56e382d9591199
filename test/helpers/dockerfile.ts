/**
 * A small Dockerfile reader for the image-consistency test (not a test file: tap runs *.test.ts
 * only). Handles comments, line continuations, ARG defaults in FROM, JSON (exec) and shell forms.
 */
export interface Instruction {
  keyword: string;
  /** Raw argument text, continuations joined with a space. */
  args: string;
  line: number;
}

export interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

export interface Dockerfile {
  args: Record<string, string>;
  stages: Stage[];
}

export function parseDockerfile(text: string): Dockerfile {
  const instructions: Instruction[] = [];
  let buffer = '';
  let start = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (buffer === '' && (line === '' || line.startsWith('#'))) return;
    if (buffer !== '' && line.startsWith('#')) return; // comment inside a continuation
    if (buffer === '') start = i + 1;
    if (line.endsWith('\\')) {
      buffer += `${line.slice(0, -1).trim()} `;
      return;
    }
    buffer += line;
    const m = /^(\S+)\s*([\s\S]*)$/.exec(buffer.trim());
    if (m) instructions.push({ keyword: m[1].toUpperCase(), args: m[2].trim(), line: start });
    buffer = '';
  });

  const result: Dockerfile = { args: {}, stages: [] };
  for (const ins of instructions) {
    if (ins.keyword === 'ARG' && result.stages.length === 0) {
      const [k, v = ''] = ins.args.split('=');
      result.args[k.trim()] = v.trim();
      continue;
    }
    if (ins.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`line ${ins.line}: cannot read FROM ${ins.args}`);
      const from = m[1].replace(/\$\{?(\w+)\}?/g, (_, k: string) => result.args[k] ?? '');
      result.stages.push({ from, name: m[2], instructions: [] });
      continue;
    }
    const stage = result.stages.at(-1);
    if (!stage) throw new Error(`line ${ins.line}: ${ins.keyword} before FROM`);
    stage.instructions.push(ins);
  }
  return result;
}

/** Exec form `["a","b"]` -> ['a','b']; shell form -> ['/bin/sh','-c', text]. */
export function execForm(args: string): string[] {
  const trimmed = args.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as string[];
  return ['/bin/sh', '-c', trimmed];
}

/** ENV in both forms: `ENV A=1 B="x y"` and legacy `ENV A 1`. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const ins of stage.instructions.filter((i) => i.keyword === 'ENV')) {
    if (!ins.args.includes('=')) {
      const [k, ...rest] = ins.args.split(/\s+/);
      env[k] = rest.join(' ');
      continue;
    }
    for (const m of ins.args.matchAll(/(\w+)=("([^"]*)"|(\S*))/g)) env[m[1]] = m[3] ?? m[4] ?? '';
  }
  return env;
}

/** Split HEALTHCHECK into its options and its command. */
export function healthcheckOf(stage: Stage): { options: Record<string, string>; command: string[] } | undefined {
  const ins = stage.instructions.filter((i) => i.keyword === 'HEALTHCHECK').at(-1);
  if (!ins) return undefined;
  const options: Record<string, string> = {};
  let rest = ins.args;
  for (;;) {
    const m = /^--([\w-]+)=(\S+)\s+/.exec(rest);
    if (!m) break;
    options[m[1]] = m[2];
    rest = rest.slice(m[0].length);
  }
  const cmd = /^CMD\s+([\s\S]*)$/i.exec(rest);
  if (!cmd) return { options, command: [] };
  return { options, command: execForm(cmd[1]) };
}
