/**
 * The Palavras-chave tab of /settings (spec 001 §2.4, §3 `keywords`, §5): for each connection
 * whose webhook points at a CRM API (./crm.ts), its keyword → code table. Rows are added,
 * edited in place and removed locally ('Por favor, preencha os dois campos.' when a field is
 * empty), then the whole table is saved with PUT /whatsapp/{id}/keywords, which checks the
 * same rules.
 */
import { useEffect, useId, useState } from "react";
import { Check, Pencil, Plus, Trash2, X } from "lucide-react";
import { api, get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { IconButton } from "../ui/AdminPage.tsx";
import { Skeleton } from "../ui/States.tsx";
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { isCrmWebhook } from "./crm.ts";

/** A keyword row. */
interface Keyword {
  keyword: string;
  code: string;
}

/** The connection fields this tab reads (GET /whatsapp). */
interface Connection {
  id: number;
  name: string;
  webhook: string;
  keywords: Keyword[];
}

const PATH = "/whatsapp?session=0";

/** Why a row cannot be kept, or "" when it can. */
function rowProblem(row: Keyword, rows: Keyword[], index: number | null): string {
  if (row.keyword.trim() === "" || row.code.trim() === "") return t("settingsKeywords.bothFields");
  const same = rows.findIndex((r) => r.keyword.trim().toLowerCase() === row.keyword.trim().toLowerCase());
  return same >= 0 && same !== index ? t("settingsKeywords.duplicate") : "";
}

/** The keywords tab. */
export function KeywordsTab({ initial }: SettingsTabProps) {
  const [connections, setConnections] = useState<Connection[] | null>(() => (initial?.[PATH] as Connection[] | undefined) ?? null);
  const [chosen, setChosen] = useState<number | null>(null);
  const selectId = useId();
  useEffect(() => {
    if (!connections) get<Connection[]>(PATH).then(setConnections, toastError);
  }, []);
  if (!connections) return <Skeleton rows={6} />;
  const crm = connections.filter((c) => isCrmWebhook(c.webhook ?? ""));
  if (crm.length === 0) return <p className="muted">{t("settingsKeywords.none")}</p>;
  const current = crm.find((c) => c.id === chosen) ?? crm[0];
  return (
    <div className="settings-keywords" data-testid="settings-keywords">
      <p className="muted">{t("settingsKeywords.intro")}</p>
      <div className="field keywords-connection">
        <label htmlFor={selectId}>{t("settingsKeywords.connection")}</label>
        <select id={selectId} className="input" value={current.id} onChange={(e) => setChosen(Number(e.target.value))}>
          {crm.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </select>
        <span className="field-hint">{t("settingsKeywords.webhook")}: {current.webhook}</span>
      </div>
      <KeywordTable
        key={current.id}
        connection={current}
        onSaved={(saved) => setConnections((old) => old && old.map((c) => (c.id === saved.id ? { ...c, keywords: saved.keywords } : c)))}
      />
    </div>
  );
}

/** The table of one connection, with its add row and save button. */
function KeywordTable({ connection, onSaved }: { connection: Connection; onSaved: (c: Connection) => void }) {
  const [rows, setRows] = useState<Keyword[]>(connection.keywords);
  const [draft, setDraft] = useState<Keyword>({ keyword: "", code: "" });
  const [editing, setEditing] = useState<{ index: number; row: Keyword } | null>(null);
  const [problem, setProblem] = useState("");
  const [busy, setBusy] = useState(false);
  const dirty = JSON.stringify(rows) !== JSON.stringify(connection.keywords);

  function add() {
    const why = rowProblem(draft, rows, null);
    setProblem(why);
    if (why) return;
    setRows([...rows, { keyword: draft.keyword.trim(), code: draft.code.trim() }]);
    setDraft({ keyword: "", code: "" });
  }

  function apply() {
    if (!editing) return;
    const why = rowProblem(editing.row, rows, editing.index);
    setProblem(why);
    if (why) return;
    setRows(rows.map((r, i) => (i === editing.index ? { keyword: editing.row.keyword.trim(), code: editing.row.code.trim() } : r)));
    setEditing(null);
  }

  async function save() {
    setBusy(true);
    try {
      const saved = await api<Connection>("PUT", `/whatsapp/${connection.id}/keywords`, { keywords: rows });
      onSaved(saved);
      showToast("success", t("settingsKeywords.saved"));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    } finally {
      setBusy(false);
    }
  }

  const input = (value: string, label: string, onChange: (v: string) => void, onEnter: () => void) => (
    <input
      className="input"
      value={value}
      aria-label={label}
      placeholder={label}
      maxLength={100}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          onEnter();
        }
      }}
    />
  );

  return (
    <div className="keywords-box">
      <div className="keywords-frame">
        <table className="keywords-table" data-testid="keywords-table">
          <thead>
            <tr>
              <th scope="col">{t("settingsKeywords.keyword")}</th>
              <th scope="col">{t("settingsKeywords.code")}</th>
              <th scope="col" className="col-actions">{t("settingsKeywords.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={3} className="muted">{t("settingsKeywords.empty")}</td>
              </tr>
            )}
            {rows.map((row, index) =>
              editing?.index === index
                ? (
                  <tr key={index} className="keywords-editing">
                    <td>{input(editing.row.keyword, t("settingsKeywords.keyword"), (v) => setEditing({ index, row: { ...editing.row, keyword: v } }), apply)}</td>
                    <td>{input(editing.row.code, t("settingsKeywords.code"), (v) => setEditing({ index, row: { ...editing.row, code: v } }), apply)}</td>
                    <td className="col-actions">
                      <IconButton label={t("settingsKeywords.apply")} onClick={apply}><Check size={16} /></IconButton>
                      <IconButton label={t("settingsKeywords.cancel")} onClick={() => { setEditing(null); setProblem(""); }}><X size={16} /></IconButton>
                    </td>
                  </tr>
                )
                : (
                  <tr key={index}>
                    <td>{row.keyword}</td>
                    <td>{row.code}</td>
                    <td className="col-actions">
                      <IconButton label={t("settingsKeywords.edit")} onClick={() => { setEditing({ index, row }); setProblem(""); }}><Pencil size={16} /></IconButton>
                      <IconButton label={t("settingsKeywords.remove")} onClick={() => setRows(rows.filter((_, i) => i !== index))}><Trash2 size={16} /></IconButton>
                    </td>
                  </tr>
                )
            )}
            <tr className="keywords-new">
              <td>{input(draft.keyword, t("settingsKeywords.keyword"), (v) => setDraft({ ...draft, keyword: v }), add)}</td>
              <td>{input(draft.code, t("settingsKeywords.code"), (v) => setDraft({ ...draft, code: v }), add)}</td>
              <td className="col-actions">
                <button type="button" className="btn btn-small" onClick={add}>
                  <Plus size={14} aria-hidden="true" /> {t("settingsKeywords.add")}
                </button>
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      {problem && <p className="field-error" role="alert">{problem}</p>}
      <div className="keywords-actions">
        {dirty && <span className="muted">{t("settingsKeywords.unsaved")}</span>}
        <button type="button" className="btn btn-primary" disabled={busy || editing !== null} aria-busy={busy} onClick={save} data-testid="keywords-save">
          {busy ? t("common.saving") : t("settingsKeywords.save")}
        </button>
      </div>
    </div>
  );
}
