/**
 * The message input (spec 000 §2, §5): up to 5 rows; Enter sends, Shift+Enter adds a line;
 * '/' at the start opens quick replies (labels cut at 35 characters); a draft per ticket in
 * localStorage; the sign-message toggle (default on); attachments; audio recording in webm
 * (shorter than 1 s is refused with 'Áudio muito curto.'); reply preview; blank text is not sent.
 * With the AI module configured, 'Sugerir resposta' puts the model's answer in the input for
 * the agent to edit (after what is already typed); it is never sent by itself.
 */
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Mic, Paperclip, Send, Sparkles, Square, X } from "lucide-react";
import { api } from "../lib/api.ts";
import { cut } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { allowed, type SessionUser, settingEnabled } from "../lib/session.ts";
import { readLocal, writeLocal } from "../lib/storage.ts";
import { showToast, toastError } from "../lib/toast.ts";
import type { Message } from "./types.ts";
import { useAiSuggest } from "./use_ai_suggest.ts";

interface QuickReply {
  id: number;
  shortcode: string;
  message: string;
}

/** Props of MessageInput. */
export interface MessageInputProps {
  user: SessionUser;
  ticketId: number;
  disabled: boolean;
  replyTo: Message | null;
  onCancelReply: () => void;
  onSent: (temp: Message) => void;
  /** The server stored the message (or refused it: null); the temporary copy goes. */
  onStored: (tempId: string, message: Message | null) => void;
}

const MAX_ROWS = 5;
const MIN_AUDIO_MS = 1000;
const draftKey = (ticketId: number) => `draftMessage:${ticketId}`;

/** The composer under the conversation. */
export function MessageInput({ user, ticketId, disabled, replyTo, onCancelReply, onSent, onStored }: MessageInputProps) {
  const [text, setText] = useState("");
  const [sign, setSign] = useState(true);
  const [quick, setQuick] = useState<QuickReply[]>([]);
  const [recording, setRecording] = useState(false);
  const [busy, setBusy] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const recorder = useRef<{ rec: MediaRecorder; started: number; chunks: Blob[]; cancel: boolean } | null>(null);
  const canSign = settingEnabled(user, "sendSignMessage") || allowed(user, "ticket-options:signMessage");
  const ai = useAiSuggest(user, ticketId);

  useEffect(() => {
    setText(readLocal(draftKey(ticketId)));
    setSign(readLocal("signOption", "true") !== "false");
  }, [ticketId]);

  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = "auto";
    const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
    el.style.height = `${Math.min(el.scrollHeight, line * MAX_ROWS + 16)}px`;
  }, [text]);

  useEffect(() => {
    if (!text.startsWith("/")) return setQuick([]);
    let live = true;
    api<QuickReply[]>("GET", `/quick-messages/list?companyId=${user.companyId}&userId=${user.id}`).then((list) => {
      const term = text.slice(1).toLowerCase();
      if (live) setQuick((Array.isArray(list) ? list : []).filter((q) => q.shortcode.toLowerCase().includes(term)).slice(0, 10));
    }, () => {});
    return () => {
      live = false;
    };
  }, [text.startsWith("/") ? text : ""]);

  function change(value: string) {
    setText(value);
    writeLocal(draftKey(ticketId), value || null);
  }

  async function send() {
    const body = text.trim();
    if (!body || disabled || busy) return;
    setBusy(true);
    const temp = {
      id: `temp-${Date.now()}`,
      ticketId,
      body,
      fromMe: true,
      ack: 0,
      mediaType: "chat",
      createdAt: new Date().toISOString(),
      isDeleted: false,
      isEdited: false,
      quotedMsg: replyTo ? { id: replyTo.id, body: replyTo.body, fromMe: replyTo.fromMe, mediaType: replyTo.mediaType } : null,
    } as unknown as Message;
    onSent(temp);
    change("");
    onCancelReply();
    try {
      const r = await api<{ message?: Message }>("POST", `/messages/${ticketId}`, { body, fromMe: true, read: 1, quotedMsg: replyTo?.id, signMessage: canSign ? sign : undefined });
      onStored(temp.id, r?.message ?? null);
    } catch (error) {
      onStored(temp.id, null);
      toastError((error as { body?: unknown }).body ?? error);
      change(body);
    } finally {
      setBusy(false);
      area.current?.focus();
    }
  }

  async function upload(files: FileList | Blob[], names?: string[]) {
    const form = new FormData();
    [...files].forEach((f, i) => form.append("medias", f, names?.[i] ?? (f as File).name));
    form.append("body", text.trim());
    form.append("fromMe", "true");
    try {
      await api("POST", `/messages/${ticketId}`, form);
      change("");
      return true;
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
      return false;
    }
  }

  async function suggestReply() {
    const suggestion = await ai.suggest();
    if (suggestion === null) return;
    const typed = area.current?.value.trim() ?? "";
    change(typed ? `${typed}\n\n${suggestion}` : suggestion);
    area.current?.focus();
  }

  function onKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (quick.length > 0) return change(quick[0].message);
      void send();
    }
    if (event.key === "Escape" && quick.length) setQuick([]);
  }

  async function startRecording() {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const rec = new MediaRecorder(stream, { mimeType: "audio/webm" });
      const state = { rec, started: Date.now(), chunks: [] as Blob[], cancel: false };
      rec.ondataavailable = (e) => state.chunks.push(e.data);
      rec.onstop = async () => {
        stream.getTracks().forEach((tr) => tr.stop());
        setRecording(false);
        if (state.cancel) return;
        if (Date.now() - state.started < MIN_AUDIO_MS) return showToast("error", t("messages.audioTooShort"));
        const ok = await upload([new Blob(state.chunks, { type: "audio/webm" })], [`audio-${Date.now()}.webm`]);
        if (!ok) showToast("error", t("messages.audioError"));
      };
      recorder.current = state;
      rec.start();
      setRecording(true);
    } catch {
      showToast("error", t("messages.micError"));
    }
  }

  function stopRecording(cancel: boolean) {
    if (!recorder.current) return;
    recorder.current.cancel = cancel;
    recorder.current.rec.stop();
    recorder.current = null;
  }

  return (
    <div className="composer">
      {replyTo && (
        <div className="reply-preview">
          <div className="quoted"><strong>{t("messages.replyingTo")}</strong><span>{replyTo.body}</span></div>
          <button type="button" className="icon-btn" aria-label={t("messages.cancelReply")} onClick={onCancelReply}><X size={16} /></button>
        </div>
      )}
      {quick.length > 0 && (
        <ul className="quick-replies" aria-label={t("messages.quickReplies")}>
          {quick.map((q) => (
            <li key={q.id}>
              <button type="button" onClick={() => change(q.message)}>
                <strong>/{q.shortcode}</strong> <span className="muted">{cut(q.message, 35)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="composer-row">
        <input ref={file} type="file" multiple hidden onChange={(e) => e.target.files?.length && upload(e.target.files).then(() => (e.target.value = ""))} />
        <button type="button" className="icon-btn" aria-label={t("messages.attach")} disabled={disabled} onClick={() => file.current?.click()}>
          <Paperclip size={20} />
        </button>
        {canSign && (
          <label className="check sign-toggle" title={t("messages.sign")}>
            <input type="checkbox" checked={sign} disabled={disabled} onChange={(e) => {
              setSign(e.target.checked);
              writeLocal("signOption", String(e.target.checked));
            }} />
            <span>{t("messages.sign")}</span>
          </label>
        )}
        {ai.available && (
          <button
            type="button"
            className={ai.busy ? "icon-btn ai-suggest busy" : "icon-btn ai-suggest"}
            aria-label={t(ai.busy ? "aiSuggest.busy" : "aiSuggest.button")}
            title={t(ai.busy ? "aiSuggest.busy" : "aiSuggest.button")}
            aria-busy={ai.busy}
            disabled={disabled || recording || ai.busy}
            onClick={suggestReply}
            data-testid="ai-suggest"
          >
            <Sparkles size={20} />
          </button>
        )}
        <textarea
          ref={area}
          rows={1}
          className="composer-text"
          placeholder={t(disabled ? "messages.placeholderClosed" : "messages.placeholder")}
          aria-label={t("messages.placeholder")}
          value={text}
          disabled={disabled || recording}
          onChange={(e) => change(e.target.value)}
          onKeyDown={onKey}
        />
        {recording
          ? (
            <>
              <button type="button" className="icon-btn" aria-label={t("messages.cancelRecord")} onClick={() => stopRecording(true)}><X size={20} /></button>
              <button type="button" className="icon-btn recording" aria-label={t("messages.stopRecord")} onClick={() => stopRecording(false)}><Square size={20} /></button>
            </>
          )
          : text.trim()
          ? <button type="button" className="icon-btn send" aria-label={t("messages.send")} disabled={disabled || busy} onClick={send}><Send size={20} /></button>
          : <button type="button" className="icon-btn" aria-label={t("messages.record")} disabled={disabled} onClick={startRecording}><Mic size={20} /></button>}
      </div>
    </div>
  );
}
