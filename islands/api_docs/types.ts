/** The parts of an OpenAPI 3.1 document the /api-docs page reads (server/openapi/document.ts writes them). */

/** A JSON Schema, shown as written. */
export type JsonSchema = Record<string, unknown>;

export interface ApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface ApiMedia {
  schema?: JsonSchema;
  example?: unknown;
}

export interface ApiResponse {
  description: string;
  content?: Record<string, ApiMedia>;
}

export interface ApiOperation {
  tags?: string[];
  operationId: string;
  summary: string;
  description?: string;
  security?: Record<string, string[]>[];
  "x-access"?: string;
  parameters?: ApiParameter[];
  requestBody?: { content: Record<string, ApiMedia> };
  responses: Record<string, ApiResponse>;
}

export interface ApiDocument {
  info: { title: string; version: string; description?: string };
  tags?: { name: string }[];
  paths: Record<string, Record<string, ApiOperation>>;
  webhooks?: Record<string, Record<string, ApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string; description?: string }>;
  };
}

/** One operation with where it lives. */
export interface OperationEntry {
  method: string;
  path: string;
  op: ApiOperation;
}

/** The operations grouped by their first tag, in the document's tag order. */
export function byTag(doc: ApiDocument): [string, OperationEntry[]][] {
  const groups = new Map<string, OperationEntry[]>((doc.tags ?? []).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags?.[0] ?? "Other";
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method, path, op });
    }
  }
  return [...groups].filter(([, ops]) => ops.length > 0);
}

/** The component names a schema refers to (`#/components/schemas/X`). */
export function refsOf(schema: unknown): string[] {
  const found = JSON.stringify(schema ?? null).matchAll(/#\/components\/schemas\/([A-Za-z0-9_]+)/g);
  return [...new Set([...found].map((m) => m[1]))];
}
