/** Texts of the service panel (spec 000 §2 Service panel) in pt, en and es; spread into ../pt.ts, ../en.ts, ../es.ts. */
const pt = {
  "panel.title": "Painel de atendimentos",
  "panel.waiting": "Aguardando",
  "panel.empty": "Nenhum atendimento",
  "panel.more": "+{{count}} não exibidos",
  "panel.online": "Online",
  "panel.offline": "Offline",
  "panel.returned": "Ticket devolvido à fila",
  "panel.transferred": "Ticket transferido",
  "panel.closed": "Ticket encerrado",
  "panel.openTicket": "Abrir o ticket de {{name}}",
  "panel.columns": "Colunas do painel",
};

export default {
  pt,
  en: {
    "panel.title": "Service panel",
    "panel.waiting": "Waiting",
    "panel.empty": "No tickets",
    "panel.more": "+{{count}} not shown",
    "panel.online": "Online",
    "panel.offline": "Offline",
    "panel.returned": "Ticket returned to the queue",
    "panel.transferred": "Ticket transferred",
    "panel.closed": "Ticket closed",
    "panel.openTicket": "Open the ticket of {{name}}",
    "panel.columns": "Panel columns",
  } satisfies Record<keyof typeof pt, string>,
  es: {
    "panel.title": "Panel de atenciones",
    "panel.waiting": "En espera",
    "panel.empty": "Ninguna atención",
    "panel.more": "+{{count}} no mostrados",
    "panel.online": "En línea",
    "panel.offline": "Desconectado",
    "panel.returned": "Ticket devuelto a la cola",
    "panel.transferred": "Ticket transferido",
    "panel.closed": "Ticket cerrado",
    "panel.openTicket": "Abrir el ticket de {{name}}",
    "panel.columns": "Columnas del panel",
  } satisfies Record<keyof typeof pt, string>,
};
