/**
 * Documentation fragments generated from the sources, so the docs cannot drift
 * (test/docs/scenarios.test.ts checks docs/scenarios-and-cli.md holds exactly these): the step reference (from schemas/scenario.ts) and the
 * list of shipped scenarios (from scenarios/*.yaml).
 */
import { STEP_KINDS, type StepKind } from '../../schemas/scenario.js';
import { expandPaths, loadScenarioFile, shippedScenariosDir } from './loader.js';

type Schema = {
  type?: string | readonly string[];
  description?: string;
  enum?: readonly unknown[];
  const?: unknown;
  oneOf?: readonly Schema[];
  properties?: Record<string, Schema>;
  required?: readonly string[];
  items?: Schema;
  pattern?: string;
  minimum?: number;
  maximum?: number;
};

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function typeOf(s: Schema): string {
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(' | ');
  if (s.oneOf) return s.oneOf.map(typeOf).join(' or ');
  if (s.type === 'array' && s.items) return `array of ${typeOf(s.items)}`;
  if (s.pattern?.includes('ms|s|m|h|d')) return 'duration';
  if (Array.isArray(s.type)) return s.type.join(' or ');
  if (s.type === 'integer' && s.maximum !== undefined) return `integer ${s.minimum ?? 0}–${s.maximum}`;
  return (s.type as string | undefined) ?? 'any JSON';
}

export function stepReferenceMarkdown(): string {
  const out: string[] = [];
  for (const kind of Object.keys(STEP_KINDS) as StepKind[]) {
    const schema = STEP_KINDS[kind] as Schema;
    out.push(`#### \`${kind}\``, '', schema.description ?? '', '');
    const props = schema.properties ?? schema.oneOf?.find((v) => v.properties)?.properties;
    if (schema.oneOf)
      out.push(
        `Value: ${schema.oneOf
          .map((v) =>
            v.properties
              ? `an object (${Object.keys(v.properties)
                  .map((k) => `\`${k}\``)
                  .join(', ')})`
              : typeOf(v),
          )
          .join(', or ')}.`,
        '',
      );
    if (kind === 'set') out.push('Value: an object of variable names to values (templated, assigned in order).', '');
    if (props && !schema.oneOf) {
      out.push('| Field | Type | Required | Meaning |', '|---|---|---|---|');
      for (const [name, p] of Object.entries(props)) {
        out.push(`| \`${name}\` | ${cell(typeOf(p))} | ${schema.required?.includes(name) ? 'yes' : 'no'} | ${cell(p.description ?? '')} |`);
      }
      out.push('');
    }
    if (kind === 'request') {
      const expect = schema.properties?.expect ?? {};
      out.push('`expect` (also on `control`):', '', '| Field | Type | Meaning |', '|---|---|---|');
      for (const [name, p] of Object.entries(expect.properties ?? {}))
        out.push(`| \`${name}\` | ${cell(typeOf(p))} | ${cell(p.description ?? '')} |`);
      out.push('');
    }
  }
  return out.join('\n').trimEnd();
}

export function shippedScenariosMarkdown(): string {
  const out = ['| Scenario | What it shows | Covers |', '|---|---|---|'];
  for (const file of expandPaths([shippedScenariosDir()])) {
    const s = loadScenarioFile(file);
    out.push(`| \`${s.name}\` | ${cell(s.description ?? '')} | ${(s.covers ?? []).map((c) => `\`${c}\``).join(' ')} |`);
  }
  return out.join('\n');
}

/** Replace the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceBlock(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`no ${name} block`);
  return `${text.slice(0, i + start.length)}\n${content}\n${text.slice(j)}`;
}
