/**
 * The new/edit chat dialog (spec 002 §2.8, §5): a title and a user picker, checked by the
 * server's own ChatInput before any call, with the spec's two alerts in the viewer's language.
 * The viewer is the owner and always a member, so the picker lists the others.
 */
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { CheckListField, FormDialog, type FormErrors, TextField, useSchemaForm } from "../ui/form.tsx";
import { useOptions } from "../ui/use_options.ts";
import type { ChatView } from "./types.ts";

interface ChatValues extends Record<string, unknown> {
  title: string;
  users: number[];
}

/** Props of ChatDialog. */
export interface ChatDialogProps {
  /** The chat to edit, or null for a new one. */
  chat: ChatView | null;
  viewerId: number;
  onClose: () => void;
  onSaved: (chat: ChatView) => void;
}

/** The dialog's alerts, translated (the schema's own texts are the pt ones). */
function alerts(v: ChatValues): FormErrors {
  const errors: FormErrors = {};
  if (v.title.trim() === "") errors.title = t("chats.titleRequired");
  if (v.users.length === 0) errors.users = t("chats.usersRequired");
  return errors;
}

/** Add or edit a chat. */
export function ChatDialog({ chat, viewerId, onClose, onSaved }: ChatDialogProps) {
  const users = useOptions("/users/list").filter((u) => u.id !== viewerId);
  const form = useSchemaForm<ChatValues>({
    schema: "ChatInput",
    initial: { title: chat?.title ?? "", users: chat ? chat.users.map((u) => u.userId).filter((id) => id !== viewerId) : [] },
    check: alerts,
    onSubmit: async (v) => {
      const body = { title: v.title, users: v.users };
      onSaved(chat ? await api<ChatView>("PUT", `/chats/${chat.id}`, body) : await api<ChatView>("POST", "/chats", body));
      onClose();
    },
  });
  return (
    <FormDialog open onOpenChange={(o) => !o && onClose()} title={t(chat ? "chats.edit" : "chats.new")} form={form} testId="chat-save">
      <TextField form={form} name="title" label={t("chats.fieldTitle")} className="field-wide" autoFocus />
      <CheckListField form={form} name="users" label={t("chats.fieldUsers")} options={users.map((u) => ({ value: u.id, label: u.name }))} />
    </FormDialog>
  );
}
