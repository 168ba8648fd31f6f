/** Search-and-page queries shared by the list endpoints (`?searchParam&pageNumber`). */
import { z } from "zod";

/** `searchParam` (free text) and `pageNumber` (1-based) of a list query. */
export const SearchPage = z.object({
  searchParam: z.string().trim().max(200).default(""),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
});
export type SearchPage = z.infer<typeof SearchPage>;

/** One page of `items` (already filtered and sorted): the rows, the total and whether more follow. */
export function paginate<T>(items: readonly T[], pageNumber: number, size = 20) {
  const start = (pageNumber - 1) * size;
  const rows = items.slice(start, start + size);
  return { rows, count: items.length, hasMore: start + rows.length < items.length };
}

/** Case- and accent-insensitive "contains" used by every search box. */
export function matchesSearch(needle: string, ...haystack: Array<string | null | undefined>) {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const n = fold(needle.trim());
  return n === "" || haystack.some((h) => h !== null && h !== undefined && fold(h).includes(n));
}
