// The simulator phone page (server/pages/simulator.ts): a static file, so the page's CSP needs no inline script.
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
