/**
 * One control of the Opções tab per setting kind (islands/settings/options_keys.ts). Each
 * saves at once through `save` (PUT /settings/{key}, spec 001 §2.4): a switch or a select
 * on change, a text field after a pause in typing (DEBOUNCE_MS) or on leaving it, never
 * per keystroke; a secret only on leaving it or Enter, since its value is write-only and a
 * half-typed one must not be stored. A control shows 'Atualizando...' while its save runs
 * and the server's message under it when refused.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { t } from "../lib/i18n.ts";
import { SECRET_MASK, settingOn } from "../../domain/settings.ts";
import { type OptionControl, switchValue } from "./options_keys.ts";

/** Milliseconds of no typing after which a text field saves. */
export const DEBOUNCE_MS = 800;

/** What a save answers: the stored value as shown, or the refusal's message. */
export type SaveResult = { value: string } | { error: string };

/** What every control receives. */
export interface ControlProps {
  control: OptionControl;
  value: string;
  disabled: boolean;
  save: (key: string, value: string) => Promise<SaveResult>;
}

/** The saving state and error of one control around its `save`. */
function useSave(props: ControlProps) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState("");
  const busy = useRef(false);
  const queued = useRef<string | null>(null);
  async function run(value: string): Promise<boolean> {
    if (busy.current) {
      // One save at a time per key, the latest value last (Enter then blur saves once).
      queued.current = value;
      return false;
    }
    busy.current = true;
    setSaving(true);
    setError("");
    try {
      const result = await props.save(props.control.key, value);
      if ("error" in result) setError(result.error);
      return !("error" in result);
    } finally {
      busy.current = false;
      setSaving(false);
      const next = queued.current;
      queued.current = null;
      if (next !== null && next !== value) void run(next);
    }
  }
  return { saving, error, run };
}

/** The label, the control, the saving indicator and the message. */
function Row({ id, label, saving, error, children, wide }: { id: string; label: string; saving: boolean; error: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "option-row option-row-wide" : "option-row"} data-testid={`option-${id}`}>
      <label htmlFor={id} className="option-label">{label}</label>
      <div className="option-control">
        {children}
        <span className="option-status" aria-live="polite">{saving ? t("settingsOptions.updating") : ""}</span>
      </div>
      {error && <span className="field-error option-error" role="alert">{error}</span>}
    </div>
  );
}

/** An on/off setting ("enabled"/"disabled"). */
export function SwitchControl(props: ControlProps) {
  const { saving, error, run } = useSave(props);
  const id = `opt-${props.control.key}`;
  return (
    <Row id={id} label={t(props.control.label)} saving={saving} error={error}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="option-switch"
        checked={settingOn(props.value)}
        disabled={props.disabled || saving}
        onChange={(e) => void run(switchValue(e.target.checked))}
      />
    </Row>
  );
}

/** A setting with fixed choices. */
export function SelectControl(props: ControlProps) {
  const { saving, error, run } = useSave(props);
  const id = `opt-${props.control.key}`;
  const choices = props.control.kind.type === "select" ? props.control.kind.choices : [];
  return (
    <Row id={id} label={t(props.control.label)} saving={saving} error={error}>
      <select id={id} className="input" value={props.value} disabled={props.disabled || saving} onChange={(e) => void run(e.target.value)}>
        {choices.map((c) => <option key={c.value} value={c.value}>{t(c.label)}</option>)}
      </select>
    </Row>
  );
}

/** A free text setting: saved after a pause in typing or on leaving the field. */
export function TextControl(props: ControlProps) {
  const { saving, error, run } = useSave(props);
  const id = `opt-${props.control.key}`;
  const [draft, setDraft] = useState(props.value);
  const stored = useRef(props.value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    // Another admin's change arrives live: show it unless this field holds unsaved typing.
    if (draft === stored.current) setDraft(props.value);
    stored.current = props.value;
  }, [props.value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  function flush(text: string) {
    clearTimeout(timer.current);
    if (text === stored.current) return;
    stored.current = text;
    void run(text);
  }
  const inputType = props.control.kind.type === "text" ? props.control.kind.inputType ?? "text" : "text";
  return (
    <Row id={id} label={t(props.control.label)} saving={saving} error={error} wide>
      <input
        id={id}
        className="input"
        type={inputType}
        value={draft}
        disabled={props.disabled}
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          const text = e.target.value;
          setDraft(text);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => flush(text), DEBOUNCE_MS);
        }}
        onBlur={(e) => flush(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && flush(e.currentTarget.value)}
      />
    </Row>
  );
}

/**
 * A write-only setting: says whether one is stored ('Configurado'), takes a new value, can
 * remove the stored one; the stored value never reaches the page (the server sends a mask).
 */
export function SecretControl(props: ControlProps) {
  const { saving, error, run } = useSave(props);
  const id = `opt-${props.control.key}`;
  const [draft, setDraft] = useState("");
  const set = props.value === SECRET_MASK;
  async function replace() {
    if (draft.trim() === "") return;
    if (await run(draft.trim())) setDraft("");
  }
  return (
    <Row id={id} label={t(props.control.label)} saving={saving} error={error} wide>
      <span className={set ? "chip option-secret-set" : "chip chip-outline"} data-testid={`secret-${props.control.key}`}>
        {t(set ? "settingsOptions.secretSet" : "settingsOptions.secretUnset")}
      </span>
      <input
        id={id}
        className="input"
        type="password"
        autoComplete="new-password"
        value={draft}
        placeholder={t(set ? "settingsOptions.secretReplace" : "settingsOptions.secretNew")}
        disabled={props.disabled || saving}
        aria-invalid={error ? true : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => void replace()}
        onKeyDown={(e) => e.key === "Enter" && void replace()}
      />
      {set && (
        <button type="button" className="btn btn-small" disabled={props.disabled || saving} onClick={() => void run("")}>
          {t("settingsOptions.secretRemove")}
        </button>
      )}
    </Row>
  );
}

/** The control for `control`'s kind. */
export function OptionControlView(props: ControlProps) {
  switch (props.control.kind.type) {
    case "switch":
      return <SwitchControl {...props} />;
    case "select":
      return <SelectControl {...props} />;
    case "secret":
      return <SecretControl {...props} />;
    default:
      return <TextControl {...props} />;
  }
}
