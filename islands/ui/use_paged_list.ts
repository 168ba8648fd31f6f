/**
 * The list state of an admin page: the first page comes from the server-rendered props (no
 * fetch, no spinner on first paint); the search box reloads page 1 after 500 ms of quiet
 * (spec 001 §9); `loadMore` fetches the next page (the table calls it within 100 px of the
 * bottom); live events patch rows in place through `upsert` and `remove`, so scroll
 * position and selection stay. Answers that arrive after a newer request are dropped.
 */
import { useCallback, useEffect, useRef, useState } from "react";

/** One page of rows as a list endpoint answers (mapped to this shape by the page). */
export interface PageResult<T> {
  rows: T[];
  hasMore: boolean;
  /** The total when the endpoint reports one (contacts' title shows it). */
  count?: number;
}

/** Where the list is. */
export type ListStatus = "loading" | "ready" | "error";

/** What a page gives the hook. */
export interface PagedListOptions<T> {
  /** The first page rendered on the server, or null to fetch it on mount. */
  initial: PageResult<T> | null;
  /** Fetches page `page` (1-based) for `search`. */
  fetchPage: (page: number, search: string) => Promise<PageResult<T>>;
  /** The row's stable id (the table's row id and the live patch key). */
  rowId: (row: T) => string | number;
  /** Search debounce (spec 001 §9: 500 ms). */
  debounceMs?: number;
}

/** The list and its operations. */
export interface PagedList<T> {
  rows: T[];
  status: ListStatus;
  hasMore: boolean;
  count: number | undefined;
  search: string;
  setSearch: (search: string) => void;
  loadMore: () => Promise<void>;
  reload: () => Promise<void>;
  /** Updates the row with the same id (merging fields), or adds it at the top when new. */
  upsert: (row: T) => void;
  /** Removes the row with this id. */
  remove: (id: string | number) => void;
  /** The row's id (the options' rowId). */
  rowId: (row: T) => string | number;
}

/** The hook; see the module doc. */
export function usePagedList<T>(options: PagedListOptions<T>): PagedList<T> {
  const { initial, debounceMs = 500 } = options;
  const [rows, setRows] = useState<T[]>(initial?.rows ?? []);
  const [status, setStatus] = useState<ListStatus>(initial ? "ready" : "loading");
  const [hasMore, setHasMore] = useState(initial?.hasMore ?? false);
  const [count, setCount] = useState<number | undefined>(initial?.count);
  const [search, setSearchState] = useState("");
  const latest = useRef(options);
  latest.current = options;
  const page = useRef(1);
  const request = useRef(0);
  const busy = useRef(false);

  const load = useCallback(async (pageNumber: number, term: string) => {
    const id = ++request.current;
    if (pageNumber === 1) setStatus((s) => (s === "error" ? "loading" : s));
    try {
      const result = await latest.current.fetchPage(pageNumber, term);
      if (id !== request.current) return;
      const key = latest.current.rowId;
      page.current = pageNumber;
      setRows((old) => {
        if (pageNumber === 1) return result.rows;
        const seen = new Set(old.map(key));
        return [...old, ...result.rows.filter((r) => !seen.has(key(r)))];
      });
      setHasMore(result.hasMore);
      if (result.count !== undefined) setCount(result.count);
      setStatus("ready");
    } catch {
      if (id === request.current && pageNumber === 1) setStatus("error");
    }
  }, []);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      if (!initial) load(1, "");
      return;
    }
    const timer = setTimeout(() => load(1, search), debounceMs);
    return () => clearTimeout(timer);
  }, [search]);

  const loadMore = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      await load(page.current + 1, searchRef.current);
    } finally {
      busy.current = false;
    }
  }, []);
  const searchRef = useRef(search);
  searchRef.current = search;

  const reload = useCallback(() => load(1, searchRef.current), []);

  const upsert = useCallback((row: T) => {
    const key = latest.current.rowId;
    setRows((old) => {
      const i = old.findIndex((r) => key(r) === key(row));
      if (i < 0) {
        setCount((c) => (c === undefined ? c : c + 1));
        return [row, ...old];
      }
      const next = old.slice();
      // Merged: an event's record may lack what the list endpoint adds (a tag's ticketsCount).
      next[i] = { ...old[i], ...row };
      return next;
    });
  }, []);

  const remove = useCallback((id: string | number) => {
    const key = latest.current.rowId;
    setRows((old) => {
      const next = old.filter((r) => String(key(r)) !== String(id));
      if (next.length !== old.length) setCount((c) => (c === undefined ? c : Math.max(0, c - 1)));
      return next;
    });
  }, []);

  const rowId = useCallback((row: T) => latest.current.rowId(row), []);

  return { rows, status, hasMore, count, search, setSearch: setSearchState, loadMore, reload, upsert, remove, rowId };
}
