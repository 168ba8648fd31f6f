/** Texts of the customer-text variables (islands/ui/TemplateVariables.tsx, domain/message_template.ts) in pt, en and es. */
const pt = {
  "templateVar.title": "Variáveis:",
  "templateVar.nome": "(nome do contato)",
  "templateVar.primeiroNome": "(primeiro nome)",
  "templateVar.numero": "(número)",
  "templateVar.email": "(e-mail)",
  "templateVar.saudacao": "(Bom dia, Boa tarde ou Boa noite)",
  "templateVar.data": "(data de hoje)",
  "templateVar.hora": "(hora atual)",
};

export default {
  pt,
  en: {
    "templateVar.title": "Variables:",
    "templateVar.nome": "(contact's name)",
    "templateVar.primeiroNome": "(first name)",
    "templateVar.numero": "(number)",
    "templateVar.email": "(e-mail)",
    "templateVar.saudacao": "(Bom dia, Boa tarde or Boa noite, by the company's clock)",
    "templateVar.data": "(today's date)",
    "templateVar.hora": "(current time)",
  } satisfies Record<keyof typeof pt, string>,
  es: {
    "templateVar.title": "Variables:",
    "templateVar.nome": "(nombre del contacto)",
    "templateVar.primeiroNome": "(primer nombre)",
    "templateVar.numero": "(número)",
    "templateVar.email": "(correo)",
    "templateVar.saudacao": "(Bom dia, Boa tarde o Boa noite, según el reloj de la empresa)",
    "templateVar.data": "(fecha de hoy)",
    "templateVar.hora": "(hora actual)",
  } satisfies Record<keyof typeof pt, string>,
};
