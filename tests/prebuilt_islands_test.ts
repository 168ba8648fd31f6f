/**
 * The islands built ahead of time (issue #37, the single binary): a server started from a
 * saved build (`deno task build`'s static/build, here a temporary folder named by
 * BALCAO_BUILD_DIR) serves its pages and bundles with esbuild unavailable, which an import
 * map makes throw on import; the same server without a saved build fails, which shows the
 * map does take esbuild away. A saved build older than the sources is not used.
 */
import assert from "node:assert/strict";
import { buildIslands } from "../server/islands/build.ts";
import { loadPrebuilt } from "../server/islands/manifest.ts";
import { spawnServer } from "./helpers/child_server.ts";
import { withTempDir } from "./helpers/temp.ts";

const NO_ESBUILD = "esbuild is not installed here";

/** Starts server/main.ts with esbuild unavailable and the islands read from `buildDir`. */
function serverWithoutEsbuild(dir: string, buildDir: string) {
  return spawnServer({
    kvPath: `${dir}/balcao.kv`,
    dataDir: `${dir}/media`,
    env: { BALCAO_BUILD_DIR: buildDir },
    denoFlags: [`--import-map=${dir}/no_esbuild.json`],
  });
}

const html = { accept: "text/html" };
const bundles = (page: string) => [...new Set([...page.matchAll(/"\/build\/([^"]+)"/g)].map((m) => m[1]))];

Deno.test("a server starts from prebuilt islands with esbuild unavailable; without them it cannot", async () => {
  await withTempDir("prebuilt-islands-", async (dir) => {
    const buildDir = `${dir}/build`;
    const built = await buildIslands({ saveTo: buildDir });
    await Deno.writeTextFile(
      `${dir}/no_esbuild.json`,
      JSON.stringify({ imports: { esbuild: `data:text/javascript,throw new Error(${JSON.stringify(NO_ESBUILD)})` } }),
    );

    const server = await serverWithoutEsbuild(dir, buildDir);
    try {
      const login = await fetch(`${server.url}/login`, { headers: html });
      assert.equal(login.status, 200, server.output());
      const page = await login.text();
      const files = bundles(page);
      assert.ok(files.includes(built.islands.Login.entry), `the login island's entry in ${files}`);
      for (const file of files) {
        const served = await fetch(`${server.url}/build/${file}`);
        assert.equal(served.status, 200, file);
        assert.deepEqual(new Uint8Array(await served.arrayBuffer()), built.files.get(file), `${file} is the saved file`);
      }
      assert.equal(server.output().includes(NO_ESBUILD), false, server.output());
    } finally {
      await server.kill();
    }

    // The same start without a saved build: building needs esbuild, which the map took away.
    const bare = await serverWithoutEsbuild(dir, `${dir}/nothing-here`);
    try {
      const login = await fetch(`${bare.url}/login`, { headers: html });
      await login.body?.cancel();
      assert.equal(login.status, 500);
      assert.match(bare.output(), new RegExp(NO_ESBUILD));
    } finally {
      await bare.kill();
    }

    // A saved build whose sources changed since is ignored; a source it cannot read is no change.
    const manifestFile = `${buildDir}/manifest.json`;
    const saved = JSON.parse(await Deno.readTextFile(manifestFile));
    await Deno.writeTextFile(manifestFile, JSON.stringify({ ...saved, sources: { ...saved.sources, "not/in/this/checkout.ts": "0".repeat(64) } }));
    assert.ok(await loadPrebuilt(buildDir), "a source that is not on disk proves nothing");
    await Deno.writeTextFile(manifestFile, JSON.stringify({ ...saved, sources: { ...saved.sources, "islands/Login.tsx": "0".repeat(64) } }));
    assert.equal(await loadPrebuilt(buildDir), undefined, "an island changed since the build");
  });
});

/**
 * Folders of the project that modules read at run time but a binary need not carry, by
 * `<module> <folder>` (the project's root is the empty folder), with the reason.
 */
const NOT_INCLUDED: Record<string, string> = {
  "server/islands/manifest.ts ": "the sources a saved build is compared with; a file it cannot read counts as unchanged",
};

Deno.test("README's deno compile command includes every folder of the project the server reads at run time", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("## One binary"), readme.indexOf("\n## ", readme.indexOf("## One binary") + 1));
  const command = /```sh\n([^`]*deno compile[^`]*)```/.exec(section)?.[1] ?? assert.fail("no deno compile command in README");
  const included = [...command.matchAll(/--include (\S+)/g)].map((m) => m[1].replace(/\/?$/, "/"));
  assert.deepEqual(included, ["static/"]);
  assert.match(command, /--output balcao server\/main\.ts/);

  // Every `new URL("…", import.meta.url)` of the server's code names a folder it reads.
  const root = new URL("../", import.meta.url);
  const read: string[] = [];
  for (const folder of ["server", "actors", "domain", "routes", "islands"]) {
    for await (const file of walkCode(new URL(`${folder}/`, root))) {
      const text = await Deno.readTextFile(file);
      for (const [, relative] of text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)) {
        const target = new URL(relative, file).pathname.slice(root.pathname.length);
        const where = file.pathname.slice(root.pathname.length);
        if (`${where} ${target}` in NOT_INCLUDED) continue;
        read.push(target);
        assert.ok(included.some((folder) => target.startsWith(folder)), `${where} reads ${target || "/"}, which --include leaves out`);
      }
    }
  }
  assert.ok(read.includes("static/"), `the static files are among what the server reads: ${read}`);
});

/** The non-test modules under `dir`. */
async function* walkCode(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* walkCode(url);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield url;
  }
}
