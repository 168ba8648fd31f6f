/**
 * Operations of the service desk: tickets, messages, contacts and wallets, tags, queues and
 * their chatbot options, quick messages, notes, opportunities, groups (spec 000 §4–§7,
 * 001 §2.13–§2.16, 002 §2.6–§2.10).
 */
import { z } from "zod";
import {
  Contact,
  ContactBlockBody,
  ContactBulkDelete,
  ContactCreateQuery,
  ContactExportQuery,
  ContactInput,
  ContactListQuery,
  ContactLookupQuery,
  ContactPhotoQuery,
  ContactUpdate,
  WalletAssign,
  WalletListQuery,
} from "../../domain/contact.ts";
import { PhoneImport } from "../../domain/contact_import.ts";
import { GroupCreate, GroupUsersAdd, GroupUsersQuery } from "../../domain/group.ts";
import {
  DeleteMessagesInput,
  EditMessageInput,
  ForwardMessagesInput,
  LinkPreviewQuery,
  MAX_SEND_FILES,
  MessagePageQuery,
  SearchMessageQuery,
  SendContactInput,
  SendMessageInput,
} from "../../domain/message.ts";
import { TicketNoteInput, TicketNoteQuery } from "../../domain/note.ts";
import { Oportunidade, OportunidadeInput } from "../../domain/oportunidade.ts";
import { SearchPage } from "../../domain/paging.ts";
import { Queue, QueueInput, QueueListQuery } from "../../domain/queue.ts";
import { QueueOption, QueueOptionCreate, QueueOptionQuery, QueueOptionUpdate } from "../../domain/queue_option.ts";
import { QuickMessageInput, QuickMessageListQuery } from "../../domain/quick_message.ts";
import { Tag, TagInput, TagListQuery, TagSync } from "../../domain/tag.ts";
import { TicketCreate, TicketMultiUpdate, TicketUpdate } from "../../domain/ticket_input.ts";
import { TicketKanbanQuery, TicketListQuery } from "../../domain/ticket_query.ts";
import { TemplateSendInput } from "../../domain/whatsapp.ts";
import { area, type Operation } from "./operation.ts";
import { MessagePage, MessageReply, MessagesSent, pageOf, TicketPage, TicketView } from "./shapes.ts";

const tickets = area("Tickets");
const messages = area("Messages");
/**
 * `GET`/`POST /messages/:ticketId` and `PUT /messages/:id` are one path template, so the
 * document names the parameter `id` in all three; its description and schema (an integer
 * here, a message id's pattern for PUT) say which id it is.
 */
const TICKET_AS_ID = { ticketId: { as: "id", description: "The ticket's id" } };
const contacts = area("Contacts");
const tags = area("Tags");
const queues = area("Queues");
const quick = area("Quick messages");
const notes = area("Ticket notes");
const oportunidades = area("Opportunities");

/** The desk's endpoints. */
export const DESK_OPERATIONS: Operation[] = [
  tickets.get("/tickets", "The inbox: tickets the user may see, filtered and paged", {
    query: { TicketListQuery },
    response: { TicketPage },
    description: "Answers `{ tickets, count, hasMore }`, and with `searchParam` also `partial`: true while the " +
      "message-search index is still being built after a start (matches by message text are then incomplete). " +
      "A plain user sees only its queues' tickets.",
  }),
  tickets.get("/ticketsCount", "Count of tickets for the same filters", { query: { TicketListQuery } }),
  tickets.get("/tickets/kanban", "Open and pending tickets for the kanban lanes, with the contact's extra info", { query: { TicketKanbanQuery }, access: "plan flag useKanban", errors: ["ERR_PLAN_FEATURE"] }),
  tickets.get("/tickets/u/:uuid", "One ticket by its uuid", { response: { TicketView }, errors: ["ERR_NO_TICKET_FOUND"] }),
  tickets.get("/tickets/:id", "One ticket", { response: { TicketView }, errors: ["ERR_NO_TICKET_FOUND"] }),
  tickets.post("/tickets", "Open a ticket for a contact", {
    body: { TicketCreate },
    response: { TicketView },
    example: { contactId: 1, queueId: 1, status: "open" },
    errors: ["ERR_OTHER_OPEN_TICKET", "ERR_NO_CONTACT_FOUND", "ERR_NO_DEF_WAPP_FOUND"],
    description: "A 409 `ERR_OTHER_OPEN_TICKET` carries the existing ticket in the error body.",
  }),
  tickets.put("/tickets/multiUpdate", "Apply one change to several tickets", { body: { TicketMultiUpdate } }),
  tickets.put("/tickets/:id", "Accept, transfer, return, close or reopen a ticket", {
    body: { TicketUpdate },
    response: { TicketView },
    example: { status: "closed", sendFarewellMessage: true },
    errors: ["ERR_NO_TICKET_FOUND", "ERR_OTHER_OPEN_TICKET", "ERR_NO_PERMISSION"],
  }),
  tickets.delete("/tickets/:id", "Delete a ticket", { errors: ["ERR_NO_TICKET_FOUND"], access: "ticket-options:delete" }),
  tickets.get("/tickets/:id/tracking", "The ticket's history of actions"),
  tickets.post("/creatGroupAndTicket", "Create a WhatsApp group and its ticket", { body: { GroupCreate } }),
  tickets.get("/groupUsers", "Participants of a group ticket", { query: { GroupUsersQuery } }),
  tickets.post("/groupUsers", "Add participants to a group", { body: { GroupUsersAdd } }),
  tickets.put("/ticket-tags/:ticketId/:tagId", "Move a ticket to a kanban lane", { errors: ["ERR_NO_TICKET_FOUND", "ERR_NO_TAG_FOUND"] }),
  tickets.delete("/ticket-tags/:ticketId", "Take a ticket out of the kanban lanes", { errors: ["ERR_NO_TICKET_FOUND"] }),

  messages.get("/messages/:ticketId", "A page of the ticket's messages (resets its unread count)", {
    pathNames: TICKET_AS_ID,
    query: { MessagePageQuery },
    response: { MessagePage },
  }),
  messages.post("/messages/:ticketId", "Send a message in a ticket (JSON text, or multipart `medias` with captions)", {
    pathNames: TICKET_AS_ID,
    body: { SendMessageInput },
    multipart: { SendMessageInput },
    files: { medias: { description: "one or more files; `body` (or one caption per file) is the caption", maxItems: MAX_SEND_FILES } },
    response: { MessagesSent },
    example: { body: "Olá! Como posso ajudar?" },
    errors: ["ERR_NO_TICKET_FOUND", "ERR_WAPP_NOT_INITIALIZED", "ERR_SENDING_WAPP_MSG", "ERR_CLOUDAPI_WINDOW_CLOSED"],
  }),
  messages.get("/messages-ghost/:ticketId", "Read a ticket's messages without marking them read", {
    query: { MessagePageQuery },
    response: { MessagePage },
    access: "ticket-options:spy",
  }),
  messages.get("/messages/metadados", "Link preview of a URL", { query: { LinkPreviewQuery } }),
  messages.get("/messages/searchMessage/:ticketId", "Ids of the ticket's messages matching a text", { query: { SearchMessageQuery } }),
  messages.post("/messages/edit/:id", "Edit a sent text message", { body: { EditMessageInput }, errors: ["ERR_NO_MESSAGE_FOUND"] }),
  messages.put("/messages/:id{[0-9]{16}-[0-9]+}", "Edit a sent text message (same as POST /messages/edit/{id})", {
    pathNames: { id: { as: "id", description: "The message's id (`<16 digits>-<n>`); a ticket's id here is GET or POST" } },
    body: { EditMessageInput },
    errors: ["ERR_NO_MESSAGE_FOUND"],
  }),
  messages.delete("/messages/delete", "Delete messages for everyone", { body: { DeleteMessagesInput }, errors: ["ERR_DELETE_WAPP_MSG"] }),
  messages.post("/messages/forward/send", "Forward messages to contacts", { body: { ForwardMessagesInput } }),
  messages.post("/messages/sendContact/:ticketId", "Send a contact card", { body: { SendContactInput } }),
  messages.get("/messages/:ticketId/window", "Cloud API: whether the 24-hour customer-service window is open"),
  messages.post("/messages/:ticketId/template", "Cloud API: send an approved template", { body: { TemplateSendInput } }),

  contacts.get("/contacts", "Contacts, 20 a page", { query: { SearchPage } }),
  contacts.get("/contacts/list", "Contacts for pickers", { query: { ContactListQuery } }),
  contacts.get("/contacts/photo", "A number's WhatsApp profile picture", { query: { PhotoQuery: ContactPhotoQuery } }),
  contacts.get("/contacts/lookup", "A contact card's number: the contact that has it (or null) and whether it is on WhatsApp (`invalido`, `checked`)", { query: { LookupQuery: ContactLookupQuery } }),
  contacts.get("/contacts/nt", "Contacts without an open ticket, 20 a page", { query: { SearchPage } }),
  contacts.get("/contacts/:id/active-ticket", "The contact's open or pending ticket, or null"),
  contacts.get("/contacts/:id", "One contact", { response: { Contact }, errors: ["ERR_NO_CONTACT_FOUND"] }),
  contacts.post("/contacts", "Create a contact", {
    query: { ContactCreateQuery },
    body: { ContactInput },
    response: { Contact },
    example: { name: "Maria Lima", number: "5511987654321", email: "maria@example.com" },
    errors: ["ERR_DUPLICATED_CONTACT", "ERR_WAPP_INVALID_CONTACT"],
  }),
  contacts.put("/contacts/block/:id", "Block or unblock a contact", { body: { BlockBody: ContactBlockBody }, response: { Contact } }),
  contacts.put("/contacts/:id", "Update a contact", { body: { ContactUpdate }, response: { Contact }, errors: ["ERR_NO_CONTACT_FOUND"] }),
  contacts.delete("/contacts/bulk-delete", "Delete several contacts", { body: { BulkDelete: ContactBulkDelete }, access: "contacts-page:deleteContact" }),
  contacts.delete("/contacts/:id", "Delete a contact", { response: { MessageReply }, access: "contacts-page:deleteContact" }),
  contacts.get("/wallets/contacts", "Contacts of a wallet (the caller's; an admin names any user, or none for every wallet), 20 a page", { query: { WalletListQuery } }),
  contacts.put("/wallets/contacts", "Assign contacts to a wallet owner", { body: { WalletAssign } }),
  contacts.post("/contacts/upload", "Import contacts from a CSV or XLSX file", { bodyKind: "multipart", files: { file: "CSV or XLSX" } }),
  contacts.post("/contacts/import", "Import the connection's phone-book contacts", { body: { PhoneImport } }),
  contacts.post("/contacts/import/chats", "Import contacts from the connection's chats", { body: { PhoneImport } }),
  contacts.get("/exportar/baixar", "Export contacts to a file; answers its path", {
    query: { ExportQuery: ContactExportQuery },
    access: "contact-page:exports",
  }),
  contacts.get("/exportar/files/:name", "Download an exported file", { response: "text/csv", access: "contact-page:exports" }),

  tags.get("/tags", "Tags with their ticket counts, 20 a page", { query: { SearchPage }, response: { TagPage: pageOf("tags", Tag) } }),
  tags.get("/tags/list", "All tags, optionally only kanban ones", { query: { TagListQuery }, response: { TagList: z.array(Tag) } }),
  tags.get("/tags/kanban", "The kanban lanes: kanban tags by order, as { lista }", { access: "plan flag useKanban", errors: ["ERR_PLAN_FEATURE"] }),
  tags.post("/tags/sync", "Replace a ticket's tags", { body: { TagSync }, example: { ticketId: 1, tags: [1, 2] } }),
  tags.get("/tags/:id", "One tag", { response: { Tag }, errors: ["ERR_NO_TAG_FOUND"] }),
  tags.post("/tags", "Create a tag (a kanban tag needs tags:manage)", {
    body: { TagInput },
    response: { Tag },
    example: { name: "Urgente", color: "#E53935", kanban: 0 },
  }),
  tags.put("/tags/:id", "Update a tag", { body: { TagInput }, bodyKind: "patch", response: { Tag }, access: "tags:manage" }),
  tags.delete("/tags/:id", "Delete a tag", { response: { MessageReply }, access: "tags:manage", errors: ["ERR_NO_TAG_FOUND"] }),

  queues.get("/queue", "Queues by priority", { query: { QueueListQuery }, response: { QueueList: z.array(Queue) } }),
  queues.get("/queue/:id", "One queue", { response: { Queue }, errors: ["ERR_NO_QUEUE_FOUND"] }),
  queues.post("/queue", "Create a queue", {
    body: { QueueInput },
    response: { Queue },
    access: "queues:manage",
    example: { name: "Suporte", color: "#1E88E5", prioridade: 1, greetingMessage: "Bem-vindo ao suporte" },
    errors: ["ERR_QUEUE_COLOR_ALREADY_EXISTS", "ERR_PLAN_LIMIT"],
  }),
  queues.put("/queue/:id", "Update a queue", { body: { QueueInput }, bodyKind: "patch", response: { Queue }, access: "queues:manage" }),
  queues.delete("/queue/:id", "Delete a queue", { access: "queues:manage", errors: ["ERR_NO_QUEUE_FOUND"] }),
  queues.get("/queue-options", "Chatbot options of a queue (a level of its tree)", { query: { QueueOptionQuery } }),
  queues.get("/queue-options/:id", "One chatbot option", { response: { QueueOption } }),
  queues.post("/queue-options", "Create a chatbot option (JSON or multipart with a file)", {
    body: { QueueOptionCreate },
    access: "queues:manage",
  }),
  queues.put("/queue-options/:id", "Update a chatbot option", { body: { QueueOptionUpdate }, access: "queues:manage" }),
  queues.delete("/queue-options/:id", "Delete a chatbot option and its sub-options", { access: "queues:manage" }),

  quick.get("/quick-messages/list", "Quick messages the user may use", { query: { QuickMessageListQuery } }),
  quick.get("/quick-messages", "Quick messages, 20 a page", { query: { SearchPage } }),
  quick.get("/quick-messages/:id", "One quick message"),
  quick.post("/quick-messages", "Create a quick message (JSON or multipart with a file)", {
    body: { QuickMessageInput },
    example: { shortcode: "oi", message: "Olá! Em que posso ajudar?" },
  }),
  quick.put("/quick-messages/:id", "Update a quick message", { body: { QuickMessageInput }, bodyKind: "patch" }),
  quick.delete("/quick-messages/:id", "Delete a quick message", { response: { MessageReply } }),
  quick.post("/quick-messages/:id/media-upload", "Attach a file to a quick message", { bodyKind: "multipart", files: { file: "any file" } }),
  quick.delete("/quick-messages/:id/media-upload", "Remove a quick message's file"),

  notes.get("/ticket-notes/list", "Notes of a ticket", { query: { TicketNoteQuery } }),
  notes.post("/ticket-notes", "Add a note to a ticket", { body: { TicketNoteInput }, example: { note: "Cliente VIP", ticketId: 1, contactId: 1 } }),
  notes.delete("/ticket-notes/:id", "Delete a note"),

  oportunidades.get("/oportunidade", "Opportunities with their linked tickets count, 20 a page", { query: { SearchPage }, response: { OportunidadePage: pageOf("oportunidades", Oportunidade.extend({ ticketsCount: z.number() })) } }),
  oportunidades.get("/oportunidade/list", "All opportunities", { response: { OportunidadeList: z.array(Oportunidade) } }),
  oportunidades.get("/oportunidade/:id", "One opportunity", { response: { Oportunidade } }),
  oportunidades.post("/oportunidade", "Create an opportunity", { body: { OportunidadeInput }, response: { Oportunidade }, example: { name: "Renovação anual" } }),
  oportunidades.put("/oportunidade/:id", "Rename an opportunity", { body: { OportunidadeInput }, response: { Oportunidade } }),
  oportunidades.delete("/oportunidade/:id", "Delete an opportunity"),
];
