/**
 * V8 flags of `npm start`, read from deno.json's start task so a bench's server process runs
 * with what runs in production (server/main.ts says why they are what they are).
 */
export const PRODUCTION_V8_FLAGS: string =
  JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url))).tasks.start.match(/--v8-flags=(\S+)/)?.[1] ??
    "";
