/**
 * Terminal colours, from Node's own `util.styleText` (the same escape codes picocolors wrote,
 * nesting included).
 */
import { styleText } from 'node:util';

type Style = 'bold' | 'cyan' | 'dim' | 'green' | 'inverse' | 'magenta' | 'red' | 'yellow';
export type Colors = Record<Style, (text: string) => string>;
const STYLES: readonly Style[] = ['bold', 'cyan', 'dim', 'green', 'inverse', 'magenta', 'red', 'yellow'];

function palette(style: (name: Style, text: string) => string): Colors {
  return Object.fromEntries(STYLES.map((name) => [name, (text: string) => style(name, text)])) as Colors;
}

/** Colours when `enabled`, plain text otherwise: the caller decides (a terminal, NO_COLOR, --no-color). */
export function colors(enabled: boolean): Colors {
  return palette(enabled ? (name, text) => styleText(name, text, { validateStream: false }) : (_, text) => text);
}

/** Colours as Node decides for standard output: on a terminal, unless NO_COLOR (or FORCE_COLOR) says otherwise. */
export const stdoutColors: Colors = palette((name, text) => styleText(name, text));
