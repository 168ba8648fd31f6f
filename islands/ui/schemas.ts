/**
 * Lazy access to the forms' zod schemas (domain/form_schemas.ts). The module and real zod
 * (≈ 90 KB gzip) load as their own chunk the first time a form asks, after the page has
 * painted; pages without forms never load them.
 */
import type * as FormSchemas from "../../domain/form_schemas.ts";

/** A schema's name in domain/form_schemas.ts. */
export type SchemaName = keyof typeof FormSchemas;

let loading: Promise<typeof FormSchemas> | undefined;

/** The schemas module (one load per page). */
export function loadSchemas(): Promise<typeof FormSchemas> {
  loading ??= import("../../domain/form_schemas.ts");
  return loading;
}
