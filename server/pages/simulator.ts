/**
 * GET /simulator: the simulator phone page (issue #4), plain HTML with a small inline script
 * that calls the JSON endpoints with the web app's token (localStorage "token"). It lists the
 * company's simulator connections, shows the QR (SVG from GET /simulator/{id}/qr), scans,
 * sends as any customer, and shows the agents' replies with their acks (buttons to ack 3/4).
 */
import QRCode from "qrcode";

/** SVG of a QR code for `text`, 256 px like the spec's dialog. */
export async function qrSvg(text: string): Promise<string> {
  return await QRCode.toString(text, { type: "svg", width: 256, margin: 1 });
}

/** The page's HTML. */
export function simulatorPage(): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Simulador WhatsApp — Balcão</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f1f5f9;color:#0f172a}
header{background:#16a34a;color:#fff;padding:12px 16px;font-weight:600}
main{display:grid;grid-template-columns:260px 1fr;gap:16px;padding:16px;max-width:1100px;margin:auto}
@media(max-width:600px){main{grid-template-columns:1fr}}
section{background:#fff;border-radius:8px;padding:12px;box-shadow:0 1px 2px #0002}
button{background:#16a34a;color:#fff;border:0;border-radius:6px;padding:6px 10px;cursor:pointer}
button.secondary{background:#64748b}
input,textarea{width:100%;box-sizing:border-box;padding:6px;margin:4px 0;border:1px solid #cbd5e1;border-radius:6px}
.conn{padding:8px;border-radius:6px;cursor:pointer}.conn.sel{background:#dcfce7}
.msg{border-bottom:1px solid #e2e8f0;padding:6px 0;white-space:pre-wrap}.ack{color:#64748b;font-size:12px}
#err{color:#b91c1c}
</style></head><body>
<header>Simulador de WhatsApp</header>
<main>
<section><h3>Conexões</h3><div id="conns"></div><p id="err"></p></section>
<section id="detail"><p>Escolha uma conexão simulada.</p></section>
</main>
<script>
const token = localStorage.getItem("token");
const api = async (method, path, body) => {
  const r = await fetch(path, { method, headers: { authorization: "Bearer " + token, "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.message || r.status);
  return data;
};
let current = null;
const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const ACKS = ["pendente", "enviada", "enviada", "entregue", "lida", "reproduzida"];
async function loadConns() {
  if (!token) { document.getElementById("err").textContent = "Entre no Balcão primeiro (token ausente)."; return; }
  try {
    const list = (await api("GET", "/whatsapp")).filter((w) => w.provider === "simulator");
    document.getElementById("conns").innerHTML = list.map((w) =>
      '<div class="conn ' + (current === w.id ? "sel" : "") + '" data-id="' + w.id + '"><b>' + esc(w.name) + '</b><br><small>' + esc(w.status) + '</small></div>').join("") || "Nenhuma conexão simulada.";
    document.querySelectorAll(".conn").forEach((el) => el.onclick = () => { current = Number(el.dataset.id); render(); loadConns(); });
  } catch (e) { document.getElementById("err").textContent = e.message; }
}
async function render() {
  if (!current) return;
  const box = document.getElementById("detail");
  try {
    const out = await api("GET", "/simulator/" + current + "/outbox");
    let qr = "";
    if (out.qrcode) qr = (await api("GET", "/simulator/" + current + "/qr")).svg;
    box.innerHTML =
      (out.connected ? "<p><b style=color:#16a34a>●</b> Conectado</p><button class=secondary id=disc>Desconectar telefone</button>" :
        (qr ? "<div>" + qr + "</div>" : "<p>Telefone desconectado.</p>") + "<button id=scan>Escanear / reconectar</button>") +
      (out.pending ? "<p>" + out.pending + " mensagem(ns) aguardando reconexão</p>" : "") +
      "<h3>Enviar como cliente</h3><input id=from placeholder='Número (ex. 5511988887777)' value='" + esc(localStorage.getItem("simFrom") || "5511988887777") + "'>" +
      "<input id=name placeholder='Nome' value='" + esc(localStorage.getItem("simName") || "Cliente") + "'>" +
      "<textarea id=body rows=2 placeholder='Mensagem'></textarea><button id=send>Enviar</button>" +
      "<h3>Respostas dos atendentes</h3>" +
      out.messages.slice().reverse().map((m) => '<div class=msg><b>para ' + esc(m.to) + ':</b> ' + esc(m.body) +
        (m.deleted ? " <i>(apagada)</i>" : "") + '<div class=ack>' + esc(m.id) + ' — ' + ACKS[m.ack] +
        ' <button data-ack=3 data-id="' + esc(m.id) + '">entregue</button> <button data-ack=4 data-id="' + esc(m.id) + '">lida</button></div></div>').join("");
    const on = (id, fn) => { const el = document.getElementById(id); if (el) el.onclick = fn; };
    on("scan", async () => { await api("POST", "/simulator/" + current + "/scan"); render(); loadConns(); });
    on("disc", async () => { await api("POST", "/simulator/" + current + "/disconnect"); render(); loadConns(); });
    on("send", async () => {
      const from = document.getElementById("from").value, name = document.getElementById("name").value;
      localStorage.setItem("simFrom", from); localStorage.setItem("simName", name);
      await api("POST", "/simulator/" + current + "/inbound", { from, name, body: document.getElementById("body").value });
      render();
    });
    box.querySelectorAll("button[data-ack]").forEach((b) => b.onclick = async () => {
      await api("POST", "/simulator/" + current + "/ack", { id: b.dataset.id, ack: Number(b.dataset.ack) }); render();
    });
  } catch (e) { box.innerHTML = "<p id=err>" + esc(e.message) + "</p>"; }
}
loadConns();
setInterval(() => { loadConns(); if (current && !document.activeElement?.matches("input,textarea")) render(); }, 3000);
</script></body></html>`;
}
