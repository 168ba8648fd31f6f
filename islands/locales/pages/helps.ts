/** Texts of the Help screen (spec 001 §2.9) in pt, en and es; spread into ../pt.ts, ../en.ts, ../es.ts. */
const pt = {
  "helps.title": "Ajuda",
  "helps.support": "Suporte pelo WhatsApp",
  "helps.supportLabel": "Falar com o suporte pelo WhatsApp (abre em uma nova aba)",
  "helps.empty": "Nenhum conteúdo de ajuda publicado ainda.",
  "helps.noMatch": "Nenhum conteúdo de ajuda encontrado para esta pesquisa.",
  "helps.video": "Vídeo: {{title}}",
};

export default {
  pt,
  en: {
    "helps.title": "Help",
    "helps.support": "WhatsApp support",
    "helps.supportLabel": "Talk to support on WhatsApp (opens in a new tab)",
    "helps.empty": "No help content has been published yet.",
    "helps.noMatch": "No help content matches this search.",
    "helps.video": "Video: {{title}}",
  } satisfies Record<keyof typeof pt, string>,
  es: {
    "helps.title": "Ayuda",
    "helps.support": "Soporte por WhatsApp",
    "helps.supportLabel": "Hablar con soporte por WhatsApp (se abre en una nueva pestaña)",
    "helps.empty": "Aún no se ha publicado contenido de ayuda.",
    "helps.noMatch": "Ningún contenido de ayuda coincide con esta búsqueda.",
    "helps.video": "Video: {{title}}",
  } satisfies Record<keyof typeof pt, string>,
};
