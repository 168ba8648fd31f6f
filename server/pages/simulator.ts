/**
 * GET /simulator: the simulator phone page (issue #4), plain HTML with a small script
 * (static/simulator.js and .css, not inline: the pages' CSP runs no inline script) that calls
 * the JSON endpoints with the web app's token (localStorage "token"). It lists the company's
 * simulator connections, shows the QR (SVG from GET /simulator/{id}/qr), scans,
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
<link rel="stylesheet" href="/static/simulator.css"></head><body>
<header>Simulador de WhatsApp</header>
<main>
<section><h3>Conexões</h3><div id="conns"></div><p id="err"></p></section>
<section id="detail"><p>Escolha uma conexão simulada.</p></section>
</main>
<script src="/static/simulator.js" defer></script></body></html>`;
}
