/** Debounced search of the pickers: starts at 3 characters, 500 ms after typing stops (spec 000 §5, §9). */
import { useEffect, useState } from "react";
import { get, query } from "../lib/api.ts";
import type { Option } from "./types.ts";

export const SEARCH_MIN = 3;
export const SEARCH_DELAY = 500;

/** Results of `path?searchParam=text` once `text` has 3+ characters. */
export function useSearch(path: string, text: string, key: string): Option[] {
  const [results, setResults] = useState<Option[]>([]);
  useEffect(() => {
    if (text.trim().length < SEARCH_MIN) {
      setResults([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      get<Record<string, Option[]>>(path + query({ searchParam: text.trim() })).then(
        (r) => live && setResults(r[key] ?? []),
        () => {},
      );
    }, SEARCH_DELAY);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);
  return results;
}
