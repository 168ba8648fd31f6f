/** Pickers' data (tags, users, connections, queues), fetched once per page and shared. */
import { useEffect, useState } from "react";
import { get } from "../lib/api.ts";

/** A queue, connection, tag or user as pickers show them. */
export interface Option {
  id: number;
  name: string;
  color?: string;
}

const cache = new Map<string, Promise<Option[]>>();

function unwrap(value: unknown): Option[] {
  if (Array.isArray(value)) return value as Option[];
  if (value && typeof value === "object") {
    for (const key of ["records", "users", "tags", "whatsapps", "queues", "contacts"]) {
      const list = (value as Record<string, unknown>)[key];
      if (Array.isArray(list)) return list as Option[];
    }
  }
  return [];
}

/** Loads `path` once per page (a failed load is retried on next use) and returns its records. */
export function useOptions(path: string | null): Option[] {
  const [options, setOptions] = useState<Option[]>([]);
  useEffect(() => {
    if (!path) return;
    let promise = cache.get(path);
    if (!promise) {
      promise = get(path).then(unwrap);
      cache.set(path, promise);
      promise.catch(() => cache.delete(path));
    }
    let live = true;
    promise.then((o) => live && setOptions(o), () => {});
    return () => {
      live = false;
    };
  }, [path]);
  return options;
}
