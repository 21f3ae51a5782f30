/**
 * Rules the OpenAPI document states that the route's schema does not validate, because the route checks them itself
 * to answer with the interface's own error: exactly one input (invalid_parameters naming `url` or `input`), html over
 * 50,000,000 characters (html_too_large, not a validation error), a page_url that is not http(s) (named `url`), and
 * the rules between parameters. They sit on the schema the route validates with, under this keyword, so they are
 * written beside the parameters they govern and cannot drift from them: the validator ignores the keyword (`ajvPlugin`
 * registers it without any validation) and the document merges it into the schema it describes (`withDocumented`).
 */
export const DOCUMENTED = 'x-folio-documented';

/** A schema (or TypeBox options) with rules for the document only. */
export function documented<T extends object>(schema: T, rules: Record<string, unknown>): T {
  return { ...schema, [DOCUMENTED]: rules };
}

/** Registers the keyword with fastify's Ajv as an annotation: it never fails a request. */
export function ajvPlugin<A extends { addKeyword: (keyword: string) => unknown }>(ajv: A): A {
  ajv.addKeyword(DOCUMENTED);
  return ajv;
}

/**
 * The schema as the document shows it: every documentation-only rule merged into the schema node that carries it
 * (`allOf` lists joined), the keyword itself gone. Returns a copy; symbol keys (TypeBox's own) are kept.
 */
export function withDocumented<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((item) => withDocumented(item)) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(schema)) {
    if (key === DOCUMENTED) continue;
    copy[key] = withDocumented((schema as Record<string | symbol, unknown>)[key]);
  }
  const rules = (schema as Record<string, unknown>)[DOCUMENTED] as Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(rules ?? {})) {
    if (key === 'allOf' && Array.isArray(copy.allOf)) copy.allOf = [...copy.allOf, ...(value as unknown[])];
    else if (key in copy) throw new Error(`documentation-only rule ${key} would replace the validated one`);
    else copy[key] = withDocumented(value);
  }
  return copy as T;
}
