/** Texts of the opportunities page (spec 002 §2.11) in pt, en and es; spread into ../pt.ts, ../en.ts, ../es.ts. */
const pt = {
  "oportunidades.title": "Oportunidades",
  "oportunidades.add": "Adicionar oportunidade",
  "oportunidades.edit": "Editar oportunidade",
  "oportunidades.colId": "ID",
  "oportunidades.colName": "Nome",
  "oportunidades.colTickets": "Tickets",
  "oportunidades.empty": "Nenhuma oportunidade ainda. Crie a primeira com \"Adicionar oportunidade\".",
  "oportunidades.name": "Nome",
  "oportunidades.saved": "Oportunidade salva com sucesso!",
  "oportunidades.deleted": "Oportunidade excluída com sucesso!",
};

export default {
  pt,
  en: {
    "oportunidades.title": "Opportunities",
    "oportunidades.add": "Add opportunity",
    "oportunidades.edit": "Edit opportunity",
    "oportunidades.colId": "ID",
    "oportunidades.colName": "Name",
    "oportunidades.colTickets": "Tickets",
    "oportunidades.empty": "No opportunities yet. Create the first one with \"Add opportunity\".",
    "oportunidades.name": "Name",
    "oportunidades.saved": "Opportunity saved successfully!",
    "oportunidades.deleted": "Opportunity deleted successfully!",
  } satisfies Record<keyof typeof pt, string>,
  es: {
    "oportunidades.title": "Oportunidades",
    "oportunidades.add": "Agregar oportunidad",
    "oportunidades.edit": "Editar oportunidad",
    "oportunidades.colId": "ID",
    "oportunidades.colName": "Nombre",
    "oportunidades.colTickets": "Tickets",
    "oportunidades.empty": "Aún no hay oportunidades. Cree la primera con \"Agregar oportunidad\".",
    "oportunidades.name": "Nombre",
    "oportunidades.saved": "¡Oportunidad guardada con éxito!",
    "oportunidades.deleted": "¡Oportunidad eliminada con éxito!",
  } satisfies Record<keyof typeof pt, string>,
};
