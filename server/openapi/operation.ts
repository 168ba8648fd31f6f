/**
 * How an HTTP operation is declared for the OpenAPI document (issue #22). Request schemas are
 * the very zod objects the handlers validate with, named as they appear in the document's
 * components: `body: { TagInput }` both names the component and holds the object, so the
 * route-walk test (tests/openapi_test.ts) can prove the handler parses with that object.
 *
 * Adding an endpoint is one line in its area's list (server/openapi/ops_*.ts):
 * `op.post("/tags", "Create a tag", { body: { TagInput }, response: { Tag } })`.
 */
import type { z } from "zod";
import type { ErrorCode } from "../../domain/errors.ts";

/** HTTP methods the product's API uses. */
export type Method = "get" | "post" | "put" | "delete";

/**
 * Who may call: `bearer` is the app's access token (JWT), `connectionToken` a connection's
 * token (external API), `refreshCookie` the httpOnly refresh cookie, `none` is public, and
 * `signature` a provider's webhook signed with a shared secret.
 */
export type Auth = "bearer" | "connectionToken" | "refreshCookie" | "none" | "signature";

/** One or more zod schemas by their component name: write `{ TagInput }`. */
export type Named = Record<string, z.ZodType>;

/** How the body travels. */
export type BodyKind =
  /** JSON validated whole by the schema. */
  | "json"
  /** JSON whose fields are merged over the stored record before the schema judges the whole: none is required. */
  | "patch"
  /** multipart/form-data: files plus the schema's fields. */
  | "multipart";

/** A multipart field of several files: what they hold and how many the handler takes. */
export interface FileField {
  description: string;
  maxItems: number;
}

/** What an area declares for one endpoint. */
export interface OperationInput {
  /** Query parameters: one z.object whose keys become `in: query` parameters. */
  query?: Named;
  /** Request headers the handler reads, by name, with the zod schema it checks them with (or a plain string schema). */
  headers?: Record<string, { schema?: z.ZodType; description: string; required?: boolean }>;
  /** The request body's schema. */
  body?: Named;
  bodyKind?: BodyKind;
  /** A multipart/form-data alternative to the JSON body: these fields plus `files`. */
  multipart?: Named;
  /**
   * Multipart file fields, by name, with what each holds: a text for one file (the handler
   * reads the first, server/api/upload_field.ts), or the text and the most files it takes.
   */
  files?: Record<string, string | FileField>;
  /** The 2xx body: a named schema, a media type for non-JSON answers (`"image/*"`), or "websocket". */
  response?: Named | string;
  /** 201 instead of 200. */
  created?: boolean;
  /** A valid request body; tests check the body schema accepts it. */
  example?: unknown;
  /** Catalogue codes beyond the common ones (validation, auth), for the error section. */
  errors?: readonly ErrorCode[];
  /** Who may call beyond being signed in: a permission name, "super"… Shown as text. */
  access?: string;
  /** Overrides the area's default auth. */
  auth?: Auth;
  /** Longer explanation (Markdown). */
  description?: string;
  /**
   * Path parameters the document names otherwise than the route, each with what it holds.
   * OpenAPI identifies a path by its template, names included, so routes of one template
   * (`GET /messages/:ticketId`, `PUT /messages/:id`) must name their parameter alike there.
   */
  pathNames?: Record<string, { as: string; description: string }>;
}

/** One documented endpoint; `path` is written as Hono routes it (`/tags/:id`). */
export interface Operation extends OperationInput {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  auth: Auth;
}

type Declare = (path: string, summary: string, input?: OperationInput) => Operation;

/** The declaring functions of one area (tag), with its default auth. */
export interface Area {
  get: Declare;
  post: Declare;
  put: Declare;
  delete: Declare;
}

/** Starts an area: `const op = area("Tags")`, then `op.get(…)`, `op.post(…)`. */
export function area(tag: string, auth: Auth = "bearer"): Area {
  const declare = (method: Method): Declare => (path, summary, input = {}) => ({
    method,
    path,
    tag,
    summary,
    ...input,
    auth: input.auth ?? auth,
  });
  return { get: declare("get"), post: declare("post"), put: declare("put"), delete: declare("delete") };
}

/** The single entry of a `Named` (declarations hold one schema each). */
export function named(value: Named | undefined): [string, z.ZodType] | undefined {
  if (!value) return undefined;
  const entries = Object.entries(value);
  if (entries.length !== 1) throw new Error(`Expected one named schema, got ${entries.map(([k]) => k).join(", ")}`);
  return entries[0];
}
