/**
 * Operations of campaigns' contact lists and their items (issue #19; spec 002 §2.6). Every
 * route needs the plan flag useCampaigns and the admin/supervisor permission `campaigns:view`.
 */
import { z } from "zod";
import {
  AddFromContacts,
  AddFromTags,
  ContactList,
  ContactListInput,
  ContactListItem,
  ContactListItemInput,
  ContactListItemQuery,
} from "../../domain/contact_list.ts";
import { SearchPage } from "../../domain/paging.ts";
import { area, type Operation } from "./operation.ts";
import { MessageReply, pageOf } from "./shapes.ts";

const lists = area("Contact lists");
const access = "plan flag useCampaigns; campaigns:view (admin, supervisor)";
const missing = ["ERR_PLAN_FEATURE", "ERR_NOT_FOUND"] as const;
const ContactListRow = ContactList.extend({
  contactsCount: z.number().int(),
  pendingCount: z.number().int().describe("Numbers not yet checked on the connection"),
  invalidCount: z.number().int().describe("Numbers without WhatsApp (skipped by campaigns)"),
});
const ListImportResult = z.object({
  valid: z.number().int(),
  invalid: z.number().int(),
  created: z.number().int(),
  duplicated: z.number().int().describe("Numbers already in the list"),
  errors: z.array(z.object({ line: z.number().int(), field: z.string(), message: z.string() })),
});
const AddResult = z.object({ found: z.number().int(), created: z.number().int(), duplicated: z.number().int() });

/** The contact-list endpoints. */
export const CONTACT_LIST_OPERATIONS: Operation[] = [
  lists.get("/contact-lists", "Contact lists, newest first, searched by name, 20 a page, with their counts", { query: { SearchPage }, response: { ContactListPage: pageOf("records", ContactListRow) }, access, errors: ["ERR_PLAN_FEATURE"] }),
  lists.get("/contact-lists/list", "Every contact list by name (the campaign dialog's select)", { response: { ContactLists: z.array(ContactList) }, access, errors: ["ERR_PLAN_FEATURE"] }),
  lists.post("/contact-lists", "Create a contact list", { body: { ContactListInput }, response: { ContactListRow }, example: { name: "Clientes VIP" }, access, errors: ["ERR_PLAN_FEATURE"] }),
  lists.get("/contact-lists/:id", "One contact list with its counts", { response: { ContactListRow }, access, errors: [...missing] }),
  lists.put("/contact-lists/:id", "Rename a contact list", { body: { ContactListInput }, response: { ContactList }, example: { name: "Clientes Ouro" }, access, errors: [...missing] }),
  lists.delete("/contact-lists/:id", "Delete a contact list and its contacts", { response: { MessageReply }, access, errors: [...missing] }),
  lists.post("/contact-lists/:id/upload", "Import contacts from a .csv or .xlsx with the columns Nome and Telefone (Email optional); numbers already in the list are skipped, new ones are checked in the background", { bodyKind: "multipart", files: { file: ".csv or .xlsx" }, response: { ListImportResult }, access, errors: [...missing] }),
  lists.post("/contact-lists/:id/add-tags", "Add the contacts of tickets carrying any of the tags", { body: { AddFromTags }, response: { AddResult }, example: { tags: [1] }, access, errors: [...missing] }),
  lists.post("/contact-lists/:id/add-contacts", "Add existing contacts by id", { body: { AddFromContacts }, response: { AddResult }, example: { contactIds: [1, 2] }, access, errors: [...missing] }),
  lists.get("/contact-list-items", "The contacts of a list in id order (the sending order), searched by name, number or e-mail, 20 a page", { query: { ContactListItemQuery }, response: { ContactListItemPage: pageOf("records", ContactListItem) }, access, errors: [...missing] }),
  lists.get("/contact-list-items/:id", "One contact of a list", { response: { ContactListItem }, access, errors: [...missing] }),
  lists.post("/contact-list-items", "Add a contact to a list (409 when its number is already there)", { body: { ContactListItemInput }, response: { ContactListItem }, example: { contactListId: 1, name: "Ana Souza", number: "5511988880001", email: "ana@example.com" }, access, errors: [...missing, "ERR_DUPLICATED_CONTACT"] }),
  lists.put("/contact-list-items/:id", "Edit a contact of a list (fields not sent are kept; a new number is checked again)", { body: { ContactListItemInput }, bodyKind: "patch", response: { ContactListItem }, example: { contactListId: 1, name: "Ana S.", number: "5511988880001" }, access, errors: [...missing, "ERR_DUPLICATED_CONTACT"] }),
  lists.delete("/contact-list-items/:id", "Remove a contact from a list", { response: { MessageReply }, access, errors: [...missing] }),
];
