/** Contact import (CSV, XLSX, legacy XLS) and export (semicolon CSV) over real HTTP. */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import * as XLSX from "@e965/xlsx";
import { setTicketTags } from "../actors/tickets/mod.ts";
import { demoTicket } from "./helpers/fixtures.ts";
import { withServer } from "./helpers/server.ts";

function upload(name: string, content: BlobPart): FormData {
  const form = new FormData();
  form.append("file", new File([content], name));
  return form;
}

Deno.test("POST /contacts/upload imports a CSV: valid, invalid and duplicate rows counted, progress sent", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const companyId = server.demo!.companyId;
    await admin.post("/contacts", { name: "Já existe", number: "5511900001111" });
    const progress: Array<{ done: number; total: number }> = [];
    const stop = server.deps.bus.subscribe((e) => {
      if (e.channel === `company-${companyId}-contactImport`) {
        progress.push(e.data as { done: number; total: number });
      }
    });
    const csv = [
      "Nome;Telefone;Cidade",
      "Ana Lima;+55 (11) 90000-2222;São Paulo",
      "Bruno;5511900003333;Rio",
      "X;5511900004444;curto",
      "Carla;123;número curto",
      "Já existe de novo;5511900001111;duplicado na base",
      "Bruno outra vez;55 11 90000 3333;duplicado no arquivo",
      ";;",
    ].join("\n");
    const r = await admin.post("/contacts/upload", upload("contatos.csv", csv));
    stop();
    assert.equal(r.status, 200);
    assert.equal(r.body.valid, 4);
    assert.equal(r.body.invalid, 2);
    assert.equal(r.body.created, 2);
    assert.equal(r.body.duplicated, 2);
    assert.deepEqual(r.body.errors, [
      { line: 4, field: "name", message: "Too Short!" },
      { line: 5, field: "number", message: "Too Short!" },
    ]);
    assert.deepEqual(progress.at(-1), { action: "progress", done: 4, total: 4 });
    const list = await admin.get("/contacts/?searchParam=ana lima");
    assert.equal(list.body.contacts[0].number, "5511900002222");
  });
});

Deno.test("POST /contacts/upload reads .xlsx, needs Nome and Telefone, refuses other types", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Contatos");
    sheet.addRow(["Telefone", "Extra", "nome", "E-mail"]);
    sheet.addRow([5511988881111, "x", "Planilha Um", "um@example.com"]);
    sheet.addRow(["5511988882222", "", "Planilha Dois", "invalido@"]);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const r = await agent.post("/contacts/upload", upload("lista.xlsx", bytes));
    assert.equal(r.status, 200);
    assert.deepEqual(
      { valid: r.body.valid, invalid: r.body.invalid, created: r.body.created },
      { valid: 1, invalid: 1, created: 1 },
    );
    assert.equal(r.body.errors[0].message, "Invalid email");
    const one = (await agent.get("/contacts/?searchParam=planilha")).body.contacts[0];
    assert.deepEqual([one.name, one.number, one.email], [
      "Planilha Um",
      "5511988881111",
      "um@example.com",
    ]);

    const noColumns = await agent.post("/contacts/upload", upload("x.csv", "Name Only\nAna\n"));
    assert.equal(noColumns.status, 400);
    assert.equal(noColumns.body.message, "O arquivo precisa das colunas Nome e Telefone");
    const wrongType = await agent.post("/contacts/upload", upload("x.txt", "Nome;Telefone\n"));
    assert.equal(wrongType.status, 400);
    const noFile = await agent.post("/contacts/upload", new FormData());
    assert.equal(noFile.status, 400);
  });
});

/** A real Excel 97–2003 workbook (BIFF8 in an OLE2 file) written by SheetJS with `rows`. */
function legacyXls(rows: unknown[][]): Uint8Array<ArrayBuffer> {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Contatos");
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "biff8" }) as ArrayBuffer);
}

Deno.test("POST /contacts/upload reads a legacy binary .xls (Excel 97): numbers as typed, extra columns ignored; a broken one is a 400", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const bytes = legacyXls([
      ["Nome", "Telefone", "Cidade"],
      ["Excel Antigo", 5511977770001, "Santos"],
      ["Planilha 97", "+55 (11) 97777-0002", ""],
      ["X", 5511977770003, "curto"],
    ]);
    assert.deepEqual([...bytes.slice(0, 4)], [0xd0, 0xcf, 0x11, 0xe0], "an OLE2 file, not a zip nor text");
    const r = await agent.post("/contacts/upload", upload("antiga.xls", bytes));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual({ valid: r.body.valid, invalid: r.body.invalid, created: r.body.created }, { valid: 2, invalid: 1, created: 2 });
    const found = (await agent.get("/contacts/?searchParam=5511977770")).body.contacts as Array<{ name: string; number: string }>;
    assert.deepEqual(found.map((c) => [c.name, c.number]).sort(), [["Excel Antigo", "5511977770001"], ["Planilha 97", "5511977770002"]]);

    // An OLE2 header over garbage is refused with the reason, not a 500.
    const broken = new Uint8Array(600);
    broken.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const refused = await agent.post("/contacts/upload", upload("quebrada.xls", broken));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, "A planilha não pôde ser lida");
  });
});

Deno.test("GET /exportar/baixar writes a semicolon CSV filtered by contacts, tags and queues", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    const [support, sales] = server.demo!.queueIds;
    const ana = (await admin.post("/contacts", {
      name: 'Ana; "A"',
      number: "5511911112222",
      email: "ana@x.io",
    })).body;
    const bia = (await admin.post("/contacts", { name: "=Bia", number: "5511933334444" })).body;
    await admin.post("/contacts", { name: "Caio", number: "5511955556666" });
    const tag = (await admin.post("/tags", { name: "Exportar" })).body;
    const ticket = await demoTicket(server, bia.number, { name: "", queueId: sales });
    await setTicketTags(system, companyId, ticket.id, [tag.id]);

    assert.equal(
      (await agent.get("/exportar/baixar")).status,
      403,
      "contact-page:exports is admin's",
    );
    const all = await admin.get("/exportar/baixar");
    assert.equal(all.status, 200);
    assert.match(all.body.filePath, /^\/exportar\/files\/.+-contacts\.csv$/);
    const file = await admin.get(all.body.filePath);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get("content-disposition"), 'attachment; filename="contacts.csv"');
    // Name order folds "=Bia" before letters; the cell is neutralised against formulas.
    assert.equal(
      file.body,
      'Nome;Telefone;Email\r\n\'=Bia;5511933334444;\r\n"Ana; ""A""";5511911112222;ana@x.io\r\nCaio;5511955556666;\r\n',
    );
    const raw = await fetch(server.url + all.body.filePath, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    assert.deepEqual(
      [...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)],
      [0xef, 0xbb, 0xbf],
      "UTF-8 BOM",
    );

    const picked = await admin.get(
      `/exportar/baixar?contactIds=${encodeURIComponent(JSON.stringify([ana.id]))}`,
    );
    const pickedCsv = (await admin.get(picked.body.filePath)).body as string;
    assert.equal(pickedCsv.trim().split("\r\n").length, 2);
    const byTag = await admin.get(
      `/exportar/baixar?tags=${encodeURIComponent(JSON.stringify([{ id: tag.id }]))}`,
    );
    assert.match((await admin.get(byTag.body.filePath)).body, /'=Bia/);
    const byQueue = await admin.get(
      `/exportar/baixar?queueIds=${encodeURIComponent(JSON.stringify([support]))}`,
    );
    assert.equal((await admin.get(byQueue.body.filePath)).body, "Nome;Telefone;Email\r\n");
    assert.equal((await admin.get("/exportar/baixar?tags=notjson")).status, 400);

    assert.equal((await server.client().get(all.body.filePath)).status, 401);
    assert.equal((await agent.get(all.body.filePath)).status, 403);
    const outsider = await server.login("super@balcao.local");
    assert.equal((await outsider.get(all.body.filePath)).status, 404, "another company's export");
    assert.equal((await admin.get("/exportar/files/..%2Fsecret-contacts.csv")).status, 404);
  });
});
