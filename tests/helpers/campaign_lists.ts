/**
 * Seeds a contact list straight into KV in the records the campaign engine reads
 * (server/campaigns/contact_lists.ts), for campaign tests until the contact-lists API lands.
 * The items have the contact-lists actor's shape (it loads them and keeps the list's counts,
 * which the report reads), so seed before anything activates that actor for the company.
 */
import { contactListItemKey, contactListKey } from "../../server/campaigns/contact_lists.ts";

export async function seedContactList(kv: Deno.Kv, companyId: number, listId: number, size: number, invalidEvery = 0): Promise<string[]> {
  await kv.set(contactListKey(companyId, listId), { id: listId, companyId, name: `Lista ${listId}`, createdAt: 0, updatedAt: 0 });
  const numbers: string[] = [];
  for (let start = 1; start <= size; start += 400) {
    const op = kv.atomic();
    for (let i = start; i < Math.min(start + 400, size + 1); i++) {
      // A São Paulo mobile (9 and eight digits): a number a WhatsApp account can have.
      const number = `55119${String(listId).padStart(2, "0")}${String(i).padStart(6, "0")}`;
      const valid = invalidEvery > 0 && i % invalidEvery === 0 ? false : true;
      if (valid) numbers.push(number);
      op.set(contactListItemKey(companyId, listId, i), {
        id: i,
        companyId,
        contactListId: listId,
        name: `Cliente ${i} Teste`,
        number,
        email: `c${i}@x.com`,
        isWhatsappValid: valid,
        createdAt: 0,
        updatedAt: 0,
      });
    }
    await op.commit();
  }
  return numbers;
}
