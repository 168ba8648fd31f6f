/**
 * Page loaders: a route may export `load(l)` to fetch its first data on the server. `l.api`
 * calls the app's own API in-process with the viewer's render token, so the first paint
 * carries exactly what the island would have fetched (same handler, same permissions, same
 * tenant rules) and there is one code path for reading, not two.
 */
import type { SessionUser } from "../../islands/lib/session.ts";

/** What a loader receives. */
export interface PageLoad {
  viewer: SessionUser;
  params: Record<string, string>;
  /** The page URL's query parameters. */
  query: URLSearchParams;
  /** GETs an API path as the viewer; null when the call fails (the island then shows its error state). */
  api<T = unknown>(path: string): Promise<T | null>;
}

/** A route's loader. */
export type Loader = (l: PageLoad) => Promise<unknown>;

/** What a public page's loader receives: no viewer, and `api` reads public endpoints only. */
export type PublicPageLoad = Omit<PageLoad, "viewer">;

/** A public route's loader (`loadPublic`): its first data, read with no token. */
export type PublicLoader = (l: PublicPageLoad) => Promise<unknown>;

/** Builds the `api` of a PageLoad over the app's fetch. */
export function apiReader(
  fetchApp: (request: Request) => Response | Promise<Response>,
  origin: string,
  token: string | null,
  /** The page request's id: the reads' log lines carry it too (http/request_log.ts). */
  requestId?: string,
): PageLoad["api"] {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (requestId) headers["x-request-id"] = requestId;
  return async function readApi<T>(path: string): Promise<T | null> {
    const response = await fetchApp(new Request(new URL(path, origin), { headers }));
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return await response.json() as T;
  };
}
