/**
 * The admin kit's form: values checked with the server's own zod schema (domain/, loaded
 * lazily by ./schemas.ts) so a field shows the schema's message, in the reader's language
 * (lib/validation_text.ts: 'Too Short!' reads 'Muito curto!' in Portuguese), before any call; the spec's submit delay (400 ms for connection and user
 * modals, 500 ms for company, plan and help forms) before the call; a busy state that
 * disables the buttons; a 400 whose `fields` name inputs shown next to those inputs, any
 * other failure as a toast (spec 000 §8).
 */
import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { toastError } from "../lib/toast.ts";
import { t } from "../lib/i18n.ts";
import { Modal } from "./Modal.tsx";
import { TemplateVariables } from "./TemplateVariables.tsx";
import { shownMessage } from "../lib/validation_text.ts";
import { loadSchemas, type SchemaName } from "./schemas.ts";

/** Field name → message. */
export type FormErrors = Record<string, string | undefined>;

/** What a page gives `useSchemaForm`. */
export interface FormOptions<V> {
  /** The schema in domain/form_schemas.ts the server parses this body with. */
  schema: SchemaName;
  initial: V;
  /** Milliseconds between a valid submit and the call (spec 001 §9). */
  delayMs?: number;
  /** Sends the values; throw the API error to have its fields or toast shown. */
  onSubmit: (values: V) => Promise<void>;
  /** Extra checks the schema cannot make (e.g. message required unless a file is attached). */
  check?: (values: V) => FormErrors;
}

/** The form state and its handlers. */
export interface SchemaForm<V> {
  values: V;
  errors: FormErrors;
  busy: boolean;
  set: <K extends keyof V>(name: K, value: V[K]) => void;
  touch: (name: keyof V & string) => void;
  /** Sets every value at once (a dialog opened on another record). */
  reset: (values: V) => void;
  /** Shows `text` at field `name` (e.g. a refused upload), or clears it with undefined. */
  setError: (name: string, text: string | undefined) => void;
  submit: (event?: FormEvent) => Promise<void>;
}

function issuesToErrors(issues: { path: PropertyKey[]; message: string }[]): FormErrors {
  const errors: FormErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_";
    errors[key] ??= shownMessage(issue.message);
  }
  return errors;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The form hook; see the module doc. */
export function useSchemaForm<V extends Record<string, unknown>>(options: FormOptions<V>): SchemaForm<V> {
  const [values, setValues] = useState<V>(options.initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [busy, setBusy] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const valuesRef = useRef(values);
  valuesRef.current = values;

  useEffect(() => {
    // Start fetching the schemas as soon as a form exists, so the first check is instant.
    loadSchemas().catch(() => {});
  }, []);

  const validate = useCallback(async (v: V): Promise<FormErrors> => {
    const schemas = await loadSchemas();
    const schema = schemas[latest.current.schema] as { safeParse: (x: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
    const result = schema.safeParse(v);
    const found = result.success ? {} : issuesToErrors(result.error!.issues);
    const checked = Object.entries(latest.current.check?.(v) ?? {}).map(([k, m]) => [k, shownMessage(m)]);
    return { ...found, ...Object.fromEntries(checked) };
  }, []);

  const set = useCallback(<K extends keyof V>(name: K, value: V[K]) => {
    setValues((old) => ({ ...old, [name]: value }));
    setErrors((old) => (old[name as string] ? { ...old, [name as string]: undefined } : old));
  }, []);

  const touch = useCallback((name: keyof V & string) => {
    setTouched((old) => ({ ...old, [name]: true }));
    validate(valuesRef.current).then((found) => setErrors((old) => ({ ...old, [name]: found[name] }))).catch(() => {});
  }, []);

  const reset = useCallback((v: V) => {
    setValues(v);
    setErrors({});
    setTouched({});
  }, []);

  const submit = useCallback(async (event?: FormEvent) => {
    event?.preventDefault();
    const v = valuesRef.current;
    let found: FormErrors;
    try {
      found = await validate(v);
    } catch {
      found = {}; // The schema chunk failed to load: the server still validates.
    }
    if (Object.values(found).some(Boolean)) {
      setErrors(found);
      setTouched(Object.fromEntries(Object.keys(found).map((k) => [k, true])));
      return;
    }
    setBusy(true);
    try {
      if (latest.current.delayMs) await sleep(latest.current.delayMs);
      await latest.current.onSubmit(v);
    } catch (error) {
      const body = (error as { body?: unknown }).body;
      const fields = (body as { fields?: FormErrors } | undefined)?.fields;
      if (fields && Object.keys(fields).some((k) => k in v)) {
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, m]) => [k, shownMessage(m)])));
      }
      else toastError(body ?? error);
    } finally {
      setBusy(false);
    }
  }, []);

  const setError = useCallback((name: string, text: string | undefined) => {
    setErrors((old) => ({ ...old, [name]: shownMessage(text) }));
  }, []);

  void touched;
  return { values, errors, busy, set, touch, reset, submit, setError };
}

/** Shared props of the field components. */
interface FieldBase<V> {
  form: SchemaForm<V>;
  name: keyof V & string;
  label: string;
  disabled?: boolean;
  hint?: string;
  /** Extra classes of the field's frame, e.g. `form-full` for a full-width field in a form grid. */
  className?: string;
}

/** Label, control and the field's message. */
function FieldFrame(
  { id, label, error, hint, children, inline, className }: {
    id: string;
    label: string;
    error?: string;
    hint?: string;
    children: ReactNode;
    inline?: boolean;
    className?: string;
  },
) {
  return (
    <div className={["field", inline && "field-inline", className].filter(Boolean).join(" ")}>
      {!inline && <label htmlFor={id}>{label}</label>}
      {children}
      {inline && <label htmlFor={id}>{label}</label>}
      {error
        ? <span className="field-error" id={`${id}-error`} role="alert">{error}</span>
        : hint
        ? <span className="field-hint">{hint}</span>
        : null}
    </div>
  );
}

/** A text input or textarea bound to `name`; `mask` formats while typing (e.g. ##:##). */
export function TextField<V extends Record<string, unknown>>(
  { form, name, label, disabled, hint, className, type = "text", rows, autoFocus, mask, placeholder, variables }: FieldBase<V> & {
    type?: string;
    rows?: number;
    autoFocus?: boolean;
    mask?: string;
    placeholder?: string;
    /** A text a customer receives: lists its variables under the box (TemplateVariables). */
    variables?: boolean;
  },
) {
  const id = useId();
  const error = form.errors[name];
  const value = form.values[name] ?? "";
  const common = {
    id,
    name,
    className: "input",
    disabled: disabled || form.busy,
    autoFocus,
    placeholder,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": [error && `${id}-error`, variables && `${id}-vars`].filter(Boolean).join(" ") || undefined,
    value: String(value),
    onBlur: () => form.touch(name),
  };
  const change = (text: string) => form.set(name, (mask ? applyMask(text, mask) : text) as V[typeof name]);
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      {rows
        ? <textarea {...common} rows={rows} onChange={(e) => change(e.target.value)} />
        : <input {...common} type={type} onChange={(e) => change(e.target.value)} />}
      {variables && <TemplateVariables id={`${id}-vars`} />}
    </FieldFrame>
  );
}

/** One choice of a select or check list. */
export interface Choice<T> {
  value: T;
  label: string;
}

/** A native select bound to `name` (values keep their type: numbers stay numbers). */
export function SelectField<V extends Record<string, unknown>, T>(
  { form, name, label, disabled, hint, className, options, empty }: FieldBase<V> & { options: Choice<T>[]; empty?: string },
) {
  const id = useId();
  const error = form.errors[name];
  const index = options.findIndex((o) => o.value === form.values[name]);
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <select
        id={id}
        name={name}
        className="input"
        disabled={disabled || form.busy}
        value={index < 0 ? "" : String(index)}
        aria-invalid={error ? true : undefined}
        onChange={(e) => form.set(name, (e.target.value === "" ? null : options[Number(e.target.value)].value) as V[typeof name])}
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o, i) => <option key={i} value={String(i)}>{o.label}</option>)}
      </select>
    </FieldFrame>
  );
}

/** A checkbox bound to a boolean `name`. */
export function CheckField<V extends Record<string, unknown>>({ form, name, label, disabled, hint, className }: FieldBase<V>) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={form.errors[name]} hint={hint} inline className={className}>
      <input
        id={id}
        name={name}
        type="checkbox"
        disabled={disabled || form.busy}
        checked={!!form.values[name]}
        onChange={(e) => form.set(name, e.target.checked as V[typeof name])}
      />
    </FieldFrame>
  );
}

/** A group of checkboxes bound to an array `name` (queues of a user, of a connection…). */
export function CheckListField<V extends Record<string, unknown>, T>(
  { form, name, label, disabled, hint, className, options }: FieldBase<V> & { options: Choice<T>[] },
) {
  const id = useId();
  const current = (form.values[name] as T[] | undefined) ?? [];
  return (
    <fieldset className={["field check-list", className].filter(Boolean).join(" ")} id={id} disabled={disabled || form.busy}>
      <legend>{label}</legend>
      {options.length === 0 && <span className="field-hint">{t("common.none")}</span>}
      {options.map((o, i) => (
        <label key={i} className="check-item">
          <input
            type="checkbox"
            checked={current.includes(o.value)}
            onChange={(e) =>
              form.set(name, (e.target.checked ? [...current, o.value] : current.filter((x) => x !== o.value)) as V[typeof name])}
          />
          {o.label}
        </label>
      ))}
      {form.errors[name] ? <span className="field-error" role="alert">{form.errors[name]}</span> : hint && <span className="field-hint">{hint}</span>}
    </fieldset>
  );
}

/** Formats `text` with a mask where `#` is a digit (spec 001 §2.5: ##:##). */
export function applyMask(text: string, mask: string): string {
  const digits = text.replace(/\D/g, "");
  let out = "";
  let d = 0;
  for (const ch of mask) {
    if (d >= digits.length) break;
    if (ch === "#") out += digits[d++];
    else out += ch;
  }
  return out;
}

/** Props of FormDialog. */
export interface FormDialogProps<V> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  form: SchemaForm<V>;
  children: ReactNode;
  submitLabel?: string;
  wide?: boolean;
  testId?: string;
}

/** A dialog around a form: Enter in a field submits; the buttons are disabled while busy. */
export function FormDialog<V>({ open, onOpenChange, title, form, children, submitLabel, wide, testId }: FormDialogProps<V>) {
  const id = useId();
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !form.busy && onOpenChange(o)}
      title={title}
      wide={wide}
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)} disabled={form.busy}>{t("common.cancel")}</button>
          <button type="submit" form={id} className="btn btn-primary" disabled={form.busy} aria-busy={form.busy} data-testid={testId}>
            {form.busy ? t("common.saving") : submitLabel ?? t("common.save")}
          </button>
        </>
      }
    >
      <form id={id} className="form-grid" onSubmit={form.submit} noValidate data-testid={testId ? `${testId}-form` : undefined}>
        {children}
      </form>
    </Modal>
  );
}
