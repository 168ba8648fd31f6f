/**
 * Request bodies must be JSON objects (issue #24, hostile input sweep): a bare JSON string,
 * an array, a number or null answered 200 on the patch routes (PUT /announcements/:id,
 * /quick-messages/:id, /schedules/:id read it as "no change" and moved updatedAt). The shared
 * reader (server/http/validate.ts jsonObjectOf) now refuses them with a 400 for every route.
 */
import assert from "node:assert/strict";
import { makeContact } from "./helpers/fixtures.ts";
import { withServer } from "./helpers/server.ts";

const NOT_OBJECTS: unknown[] = ["just a string", [{ title: "x" }], 7, null];

Deno.test("a body that is not a JSON object answers 400 and changes nothing", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const admin = await server.login("admin@demo.local");
    const owner = await server.login("super@balcao.local");
    const contact = await makeContact(server, companyId, { name: "Corpo Objeto" });

    const quick = await admin.post("/quick-messages", { shortcode: "obj", message: "Olá!" });
    assert.equal(quick.status, 200, JSON.stringify(quick.body));
    const announcement = await owner.post("/announcements", { title: "Aviso", text: "Texto" });
    assert.equal(announcement.status, 201, JSON.stringify(announcement.body));
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const schedule = await admin.post("/schedules", { body: "Lembrete do corpo", contactId: contact.id, sendAt });
    assert.equal(schedule.status, 200, JSON.stringify(schedule.body));

    const targets = [
      { client: admin, path: `/quick-messages/${quick.body.id}` },
      { client: owner, path: `/announcements/${announcement.body.id}` },
      { client: admin, path: `/schedules/${schedule.body.id}` },
      { client: admin, path: "/tags", method: "POST" },
    ];
    for (const { client, path, method = "PUT" } of targets) {
      const before = method === "PUT" ? (await client.get(path)).body : undefined;
      for (const body of NOT_OBJECTS) {
        await tStep(`${method} ${path} ${JSON.stringify(body)}`, async () => {
          const answer = await client.request(method, path, body);
          assert.equal(answer.status, 400, JSON.stringify(answer.body));
          assert.equal(answer.body.error, "ERR_VALIDATION");
          assert.equal(answer.body.message, "Body must be a JSON object");
        });
      }
      if (before) assert.deepEqual((await client.get(path)).body, before, `${path} unchanged`);
    }

    // An object still works, and an empty body still reaches the schema.
    const ok = await admin.put(`/quick-messages/${quick.body.id}`, { message: "Olá de novo" });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.message, "Olá de novo");
  });
});

/** Labels a failing case (a plain wrapper so the loop's label shows in the assertion). */
async function tStep(label: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
}
