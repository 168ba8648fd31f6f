/**
 * Who and what the demo's thirty days are made of: the customers (none of them the three who
 * write in on `npm start`, nor the simulator's address book, so neither meets a survey or a
 * ticket of the past) and the conversations they have, by queue. Agents' lines use WhatsApp's
 * own marks (*bold*, _italic_), as people type them, so the inbox and the simulated phone
 * render them.
 */

/** One customer: name, number and, for buyers, the lead value a seller noted on the contact. */
export interface Customer {
  name: string;
  number: string;
  /** 'Valor do Lead' as typed in the contact's extra info (kanban lanes sum it), or null. */
  leadValue: string | null;
}

const FIRST_NAMES = [
  "Ana Paula", "Bruno", "Camila", "Daniel", "Elisa", "Felipe", "Gabriela", "Henrique", "Isabela", "João Pedro",
  "Karina", "Lucas", "Marina", "Nicolas", "Olívia", "Paulo", "Renata", "Rafael", "Sabrina", "Thiago",
  "Vanessa", "Vinícius", "Yasmin", "Wagner",
] as const;
const SURNAMES = [
  "Ribeiro", "Carvalho", "Fernandes", "Moreira", "Duarte", "Barros", "Teixeira", "Azevedo", "Cardoso", "Freitas",
  "Mendes", "Pereira", "Castro", "Araújo", "Batista", "Dias", "Monteiro", "Gomes", "Lopes", "Ramos",
  "Vieira", "Correia", "Pinto", "Farias", "Nunes", "Rezende", "Cunha", "Machado", "Fonseca", "Santana",
] as const;

const AREA_CODES = ["11", "11", "11", "21", "21", "31", "41", "51", "61", "71", "81", "85"] as const;

const LEAD_VALUES = ["R$ 1.200,00", "R$ 2.390,00", "R$ 850,00", "R$ 4.800,00", "R$ 1.990,00", "R$ 3.500,00", "R$ 12.000,00", "R$ 640,00"];

/** How many customers write in: enough that each has a few conversations in the month. */
const CUSTOMER_COUNT = 80;

/**
 * The history's customers: names and numbers derived from the position (never random), every
 * other one a buyer with a lead value.
 */
export function customers(): Customer[] {
  return Array.from({ length: CUSTOMER_COUNT }, (_, i) => ({
    name: `${FIRST_NAMES[i % FIRST_NAMES.length]} ${SURNAMES[(i * 7) % SURNAMES.length]}`,
    number: `55${AREA_CODES[i % AREA_CODES.length]}9${String(71_000_000 + i * 7_919).padStart(8, "0")}`,
    leadValue: i % 2 === 1 ? LEAD_VALUES[i % LEAD_VALUES.length] : null,
  }));
}

/** A line of a conversation: the customer's (c) or the agent's (a). */
export type Line = readonly ["c" | "a", string];

/** One kind of conversation: its queue, how the customer opens it, and the exchange after. */
export interface Topic {
  queue: "support" | "sales";
  opening: string;
  /** Said after choosing the queue, before anyone answers. */
  detail: string;
  lines: readonly Line[];
  /** The agent's last words before closing. */
  farewell: string;
}

export const TOPICS: readonly Topic[] = [
  {
    queue: "support",
    opening: "Oi, boa tarde! Meu pedido ainda não chegou",
    detail: "O número do pedido é 48213, comprei semana passada",
    lines: [
      ["a", "Olá, {name}! Sou {agent}, vou verificar o pedido *48213* para você."],
      ["a", "Encontrei: ele saiu ontem da transportadora e a previsão de entrega é _amanhã até as 18h_."],
      ["c", "Ah, que bom! Obrigada"],
    ],
    farewell: "Qualquer coisa é só chamar por aqui. Tenha um ótimo dia!",
  },
  {
    queue: "support",
    opening: "Bom dia, preciso da segunda via do boleto",
    detail: "Venceu ontem, consigo pagar ainda?",
    lines: [
      ["a", "Bom dia, {name}! Consegue sim, vou gerar uma nova via com vencimento para hoje."],
      ["a", "Pronto! Enviei para o seu e-mail. A linha digitável é:\n```23793.38128 60000.000003 00000.000400 1 94370000012990```"],
      ["c", "Recebi aqui, já paguei. Valeu!"],
    ],
    farewell: "Perfeito, o pagamento compensa em até 1 dia útil.",
  },
  {
    queue: "support",
    opening: "Olá, não consigo entrar na minha conta",
    detail: "Diz que a senha está errada mas tenho certeza que está certa",
    lines: [
      ["a", "Oi, {name}, tudo bem? Vou te ajudar. Você tentou a opção *Esqueci minha senha*?"],
      ["c", "Tentei mas o e-mail não chega"],
      ["a", "Verifiquei aqui: o e-mail do cadastro estava com um erro de digitação. Já corrigi, pode tentar de novo?"],
      ["c", "Agora foi! Consegui entrar"],
    ],
    farewell: "Ótimo! Se precisar de algo mais, estamos por aqui.",
  },
  {
    queue: "support",
    opening: "Oi, o produto veio com defeito",
    detail: "A tampa veio quebrada, quero trocar",
    lines: [
      ["a", "Que pena, {name}! Sinto muito pelo transtorno. Pode me mandar uma foto da peça?"],
      ["c", "Mandei no e-mail de vocês agora há pouco"],
      ["a", "Recebi, obrigado. A troca está aprovada: o entregador passa para buscar em até *2 dias úteis* e leva a peça nova."],
      ["c", "Perfeito, muito obrigado"],
    ],
    farewell: "Nós que agradecemos a paciência!",
  },
  {
    queue: "support",
    opening: "Boa noite, preciso da nota fiscal da minha compra",
    detail: "É para reembolso da empresa",
    lines: [
      ["a", "Olá, {name}! Claro, qual é o CPF ou CNPJ que deve constar na nota?"],
      ["c", "Pode ser o CNPJ 12.345.678/0001-90"],
      ["a", "Nota emitida e enviada para o seu e-mail ✅"],
    ],
    farewell: "Precisando, é só chamar.",
  },
  {
    queue: "sales",
    opening: "Olá! Quanto custa o plano anual?",
    detail: "Somos uma equipe de 8 pessoas",
    lines: [
      ["a", "Olá, {name}! Sou {agent}, do comercial. Para 8 pessoas o plano anual sai por *R$ 2.390,00* (2 meses grátis em relação ao mensal)."],
      ["c", "Tem desconto no pix?"],
      ["a", "Tem sim: _5% à vista no pix_. Posso te mandar a proposta?"],
      ["c", "Pode mandar, vou apresentar para o meu sócio"],
    ],
    farewell: "Proposta enviada! Fico no aguardo do retorno de vocês.",
  },
  {
    queue: "sales",
    opening: "Boa tarde, vocês fazem orçamento para empresa?",
    detail: "Precisamos de 30 unidades",
    lines: [
      ["a", "Boa tarde, {name}! Fazemos sim. Para *30 unidades* conseguimos 12% de desconto e frete grátis."],
      ["c", "Qual o prazo de entrega?"],
      ["a", "Até 7 dias úteis para capitais. Quer que eu formalize o orçamento?"],
      ["c", "Quero sim"],
    ],
    farewell: "Orçamento enviado por e-mail. Qualquer dúvida estou à disposição!",
  },
  {
    queue: "sales",
    opening: "Oi, vi o anúncio de vocês no Instagram",
    detail: "Queria saber mais sobre o produto",
    lines: [
      ["a", "Oi, {name}! Que bom que gostou 😊 Você procura para uso pessoal ou para a empresa?"],
      ["c", "Para a minha loja"],
      ["a", "Para lojistas temos uma condição especial: *kit revenda* com 10 unidades e preço de atacado."],
      ["c", "Interessante, vou pensar e te falo"],
    ],
    farewell: "Combinado! Fico à disposição.",
  },
  {
    queue: "sales",
    opening: "Olá, vocês parcelam no cartão?",
    detail: "Quero comprar o modelo grande",
    lines: [
      ["a", "Olá, {name}! Parcelamos em até *10x sem juros* no cartão."],
      ["c", "Ótimo, como faço o pedido?"],
      ["a", "Te mandei o link de pagamento aqui no chat. Assim que aprovar, já separamos o pedido."],
      ["c", "Pago! 🎉"],
    ],
    farewell: "Pagamento aprovado, obrigado pela compra!",
  },
];

/** Internal chat between the three staff, a few days before the seed ends. */
export const TEAM_CHAT: ReadonlyArray<readonly ["admin" | "supervisor" | "agent", string]> = [
  ["supervisor", "Pessoal, hoje a fila de Vendas está cheia por causa da campanha. Quem puder, ajuda por lá à tarde?"],
  ["agent", "Eu fico com o Suporte enquanto isso, está tranquilo por aqui."],
  ["admin", "Ótimo. Lembrem de marcar os leads quentes no kanban com o valor do lead no contato."],
  ["supervisor", "Combinado! Depois mando o resumo das avaliações da semana."],
  ["agent", "A nota média de ontem foi 4,6 👏"],
];

/** Opportunities the sellers keep (the oportunidades screen), by name. */
export const OPORTUNIDADES = ["Plano anual equipe", "Revenda kit 10 unidades", "Orçamento empresa 30 un."] as const;

/** The finished campaign and the scheduled one. */
export const CAMPAIGNS = {
  finished: {
    name: "Promoção de aniversário",
    message: "Oi, {nome}! 🎉 Nosso aniversário chegou e você ganha *15% de desconto* em todo o site até domingo. Use o cupom ANIVER15.",
  },
  scheduled: {
    name: "Black Friday antecipada",
    message: "Oi, {nome}! A Black Friday antecipada começa amanhã: *até 40% off*. Quer receber a lista de ofertas em primeira mão?",
  },
} as const;

/** Upcoming scheduled messages (the schedules calendar). */
export const SCHEDULES = [
  { days: 1, hour: 10, body: "Olá! Passando para lembrar do vencimento do seu boleto amanhã. Qualquer dúvida, estamos aqui." },
  { days: 2, hour: 15, body: "Oi! Sua proposta do plano anual vence sexta-feira. Posso ajudar a fechar?" },
  { days: 4, hour: 9, body: "Bom dia! O seu pedido de troca foi concluído. Como foi a experiência?" },
  { days: 7, hour: 11, body: "Olá! Faz uma semana da sua compra: está tudo certo com o produto?" },
] as const;
