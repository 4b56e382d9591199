/**
 * Everything obsim sends, its document names: a value obsim answered or delivered for an enum-like
 * field (a status, a reason, an event, a transaction's type) must be listed by the served document
 * where that field is described: in its `enum`, or, for a field the provider's contract gives no
 * enum (bankPaymentStatus), as a word of its description. The document is read as a client
 * generator reads it: the operation's answer schema, each webhook's body schema.
 */
type Json = Record<string, any>;

/** The fields checked, wherever they stand in an answer or a delivery. */
const ENUM_LIKE = new Set([
  'status',
  'bankPaymentStatus',
  'failureReason',
  'onboardingStatus',
  'subTppStatus',
  'previousStatus',
  'type',
  'event',
]);

export interface ServedDocument {
  doc: Json;
  /** Path templates as patterns, most specific first. */
  routes: { method: string; pattern: RegExp; op: Json }[];
}

export function servedDocument(doc: Json): ServedDocument {
  const routes: ServedDocument['routes'] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries(item as Json)) routes.push({ method: method.toUpperCase(), pattern, op: op as Json });
  }
  // a literal segment wins over a parameter (/merchants/test over /merchants/{id})
  const parameters = (r: { pattern: RegExp }) => r.pattern.source.split('[^/]+').length;
  routes.sort((a, b) => parameters(a) - parameters(b));
  return { doc, routes };
}

function deref(doc: Json, schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = doc.components.schemas[String(s.$ref).split('/').pop()!];
  return s;
}

/** The branches a value may be described by (oneOf, anyOf, allOf flattened). */
function branches(doc: Json, schema: Json | undefined): Json[] {
  const s = deref(doc, schema);
  if (!s) return [];
  const more = [...((s.oneOf as Json[]) ?? []), ...((s.anyOf as Json[]) ?? []), ...((s.allOf as Json[]) ?? [])];
  return [s, ...more.flatMap((b) => branches(doc, b))];
}

const word = (text: string, value: string) =>
  new RegExp(`(^|[^A-Za-z0-9_.])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_])`).test(text);

/** Where `value` is not named by `schema` (walked as deep as the value goes). */
function unnamed(doc: Json, schema: Json | undefined, value: unknown, at: string, out: string[]): void {
  const all = branches(doc, schema);
  if (all.length === 0) return;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) for (const b of all) if (b.items) unnamed(doc, b.items as Json, v, `${at}/${i}`, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value as Json)) {
    const described = all
      .map((b) => deref(doc, (b.properties as Json | undefined)?.[key] as Json))
      .filter((s): s is Json => s !== undefined);
    if (described.length === 0) continue;
    if (ENUM_LIKE.has(key) && (typeof v === 'string' || typeof v === 'number')) {
      const named = described.some((s) =>
        branches(doc, s).some((b) =>
          Array.isArray(b.enum) ? b.enum.includes(v) : typeof b.description === 'string' && word(b.description, String(v)),
        ),
      );
      if (!named) out.push(`${at}/${key}: "${String(v)}"`);
    } else {
      for (const s of described) unnamed(doc, s, v, `${at}/${key}`, out);
    }
  }
}

/** What a 2xx answer carries that its operation's documented answer does not name. */
export function unnamedInAnswer(served: ServedDocument, method: string, path: string, status: number, body: unknown): string[] {
  const route = served.routes.find((r) => r.method === method && r.pattern.test(path));
  if (!route) return [];
  const content = (route.op.responses as Json)?.[String(status)]?.content as Json | undefined;
  const schema = content?.['application/json']?.schema as Json | undefined;
  const out: string[] = [];
  if (schema) unnamed(served.doc, schema, body, `${method} ${path} ${status}`, out);
  return out;
}

/** What a delivered event carries that the document's webhook for it does not name (an event it has no webhook for, first). */
export function unnamedInDelivery(doc: Json, body: { event?: string }): string[] {
  const hook = (doc.webhooks as Json | undefined)?.[String(body.event)] as Json | undefined;
  if (!hook) return [`event "${String(body.event)}" has no webhook in the document`];
  const out: string[] = [];
  unnamed(doc, hook.post?.requestBody?.content?.['application/json']?.schema as Json, body, `webhook ${String(body.event)}`, out);
  return out;
}
