/**
 * Where every API area is mounted. One line per area; an area's file owns its paths.
 * Keep this list short and sorted by area; add your area's line here.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../deps.ts";

export function mountAreas(_app: Hono<AppEnv>): void {
}
