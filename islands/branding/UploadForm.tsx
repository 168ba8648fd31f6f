/**
 * The upload tabs' form and list (spec 001 §2.11, §5): a destination, a file, 'Enviar'; the
 * spec's warnings when either is missing or the file has the wrong type (checked here by
 * name, and again by content on the server, whose refusal maps to the same texts), the
 * toast 'Arquivo enviado com sucesso!' when the server answers that the file was attached,
 * and what is on file for each destination (with a preview for images, a link for PDFs and
 * nothing more for the certificate, which is never served). One component for the three
 * tabs, which differ only in `kind`.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { api, ApiError, get } from "../lib/api.ts";
import { formatDate, formatTime } from "../lib/format.ts";
import { type LocaleKey, t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { ErrorState, Skeleton } from "../ui/States.tsx";
import { brandingUrl, UPLOAD_KINDS, type UploadKind } from "../../domain/branding.ts";

/** GET /branding/files: each kind's destinations with their file (null when none). */
export type FilesOnRecord = Record<UploadKind, Record<string, { size: number; updatedAt: number } | null>>;

/** The API path that lists what is on file (the upload tabs' `paths`). */
export const FILES_PATH = "/branding/files";

const ENDPOINT: Record<UploadKind, string> = { logo: "media-upload", doc: "doc-upload", cert: "cert-upload" };
const WRONG_TYPE: Record<UploadKind, LocaleKey> = {
  logo: "branding.onlyPng",
  doc: "branding.onlyPdf",
  cert: "branding.onlyP12",
};
const ACCEPT: Record<UploadKind, string> = { logo: ".png,image/png", doc: ".pdf,application/pdf", cert: ".p12" };
/** The success message of the server (server/api/settings_uploads.ts). */
const ATTACHED = "Arquivo anexado";

/** Props of UploadForm. */
export interface UploadFormProps {
  kind: UploadKind;
  /** The tab's first data by path (FILES_PATH), or null: fetch it. */
  initial: Record<string, unknown> | null;
  /** The tab's introduction. */
  intro: LocaleKey;
}

const destLabel = (d: string) => t(`branding.dest.${d}` as LocaleKey);

/** An upload tab's form and the list of what is on file. */
export function UploadForm({ kind, initial, intro }: UploadFormProps) {
  const spec = UPLOAD_KINDS[kind];
  const [files, setFiles] = useState<FilesOnRecord | null>((initial?.[FILES_PATH] as FilesOnRecord | undefined) ?? null);
  const [failed, setFailed] = useState(false);
  const [destination, setDestination] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = { dest: useId(), file: useId() };

  function load() {
    setFailed(false);
    get<FilesOnRecord>(FILES_PATH).then(setFiles, () => setFailed(true));
  }
  useEffect(() => {
    if (!files) load();
  }, []);

  function warn(key: LocaleKey, vars?: Record<string, string>) {
    showToast("warning", t(key, vars), "branding-upload");
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return warn("branding.noFile");
    if (!destination) return warn("branding.noDestination");
    if (!file.name.toLowerCase().endsWith(spec.ext)) return warn(WRONG_TYPE[kind]);
    if (file.size > spec.maxBytes) return warn("branding.tooLarge", { size: megabytes(spec.maxBytes) });
    const body = new FormData();
    body.append("file", file);
    setBusy(true);
    try {
      const answer = await api<{ message?: string }>("POST", `/settings/${ENDPOINT[kind]}?ref=${encodeURIComponent(destination)}`, body);
      if (answer?.message !== ATTACHED) throw answer;
      showToast("success", t("branding.sent"), "branding-upload");
      setFile(null);
      if (input.current) input.current.value = "";
      load();
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  }

  /** The server's refusal in the spec's words (its `fields` name the cause). */
  function refused(error: unknown) {
    const fields = error instanceof ApiError ? (error.body as { fields?: Record<string, string> })?.fields : undefined;
    if (error instanceof ApiError && error.status === 413) warn("branding.tooLarge", { size: megabytes(spec.maxBytes) });
    else if (fields?.ref) warn("branding.noDestination");
    else if (fields?.file) warn(WRONG_TYPE[kind]);
    else toastError(error);
  }

  return (
    <div className="branding-tab" data-testid={`upload-${kind}`}>
      <p className="muted">{t(intro)}</p>
      <form className="branding-upload" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={ids.dest}>{t("branding.destination")}</label>
          <select id={ids.dest} className="input" value={destination} onChange={(e) => setDestination(e.target.value)}>
            <option value="">{t("branding.chooseDestination")}</option>
            {spec.destinations.map((d) => <option key={d} value={d}>{destLabel(d)}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.file}>{t("branding.file")}</label>
          <input
            ref={input}
            id={ids.file}
            className="input"
            type="file"
            accept={ACCEPT[kind]}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>{t(busy ? "branding.sending" : "branding.send")}</button>
      </form>
      {failed ? <ErrorState onRetry={load} /> : !files ? <Skeleton rows={3} /> : <OnFile kind={kind} files={files[kind]} />}
    </div>
  );
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Each destination and what is on file for it. */
function OnFile({ kind, files }: { kind: UploadKind; files: FilesOnRecord[UploadKind] }) {
  return (
    <ul className="branding-files" data-testid={`files-${kind}`}>
      {UPLOAD_KINDS[kind].destinations.map((d) => {
        const info = files[d];
        const url = info && kind !== "cert" ? brandingUrl(kind, d, info.updatedAt) : null;
        return (
          <li key={d} className="branding-file" data-dest={d}>
            {kind === "logo" && (
              <span className="branding-preview">{url && <img src={url} alt={destLabel(d)} loading="lazy" />}</span>
            )}
            <span className="branding-file-name">{destLabel(d)}</span>
            <span className="muted">
              {info ? t("branding.onFile", { date: `${formatDate(info.updatedAt)} ${formatTime(info.updatedAt)}` }) : t("branding.notOnFile")}
            </span>
            {kind === "doc" && url && <a href={url} target="_blank" rel="noopener">{t("branding.open")}</a>}
          </li>
        );
      })}
    </ul>
  );
}
