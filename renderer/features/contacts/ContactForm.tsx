import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Contact } from '../../../shared/domain.ts';
import { formatAsYouType, isEmailHandle, toE164 } from '../../../shared/phone.ts';
import { saveContact, type ContactInput } from '../../actions/contacts.ts';
import { contactErrorText, contactFieldOf, toErrorShape, type ContactField } from '../../lib/errors.ts';
import { useStore } from '../../store/index.ts';

const FIELDS: ReadonlyArray<{ name: ContactField; label: string; type?: string; autoComplete?: string }> = [
  { name: 'firstName', label: 'First name', autoComplete: 'off' },
  { name: 'lastName', label: 'Last name', autoComplete: 'off' },
  { name: 'phoneNumber', label: 'Phone number', type: 'tel' },
  { name: 'email', label: 'Email', type: 'email' },
  { name: 'company', label: 'Company' },
  { name: 'title', label: 'Title' },
  { name: 'location', label: 'Location' },
  { name: 'ownerEmail', label: 'Owner (user email)', type: 'email' },
];

type Values = Record<ContactField, string>;

function initialValues(contact: Contact | null): Values {
  return {
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    phoneNumber: contact?.phoneNumber ?? '',
    email: contact?.email ?? '',
    company: contact?.company ?? '',
    title: contact?.title ?? '',
    location: contact?.location ?? '',
    ownerEmail: contact?.owner?.email ?? '',
  };
}

/** Checks the service would make anyway, said before the round trip. */
function localErrors(values: Values): Partial<Record<ContactField | 'form', string>> {
  const errors: Partial<Record<ContactField | 'form', string>> = {};
  if (![values.firstName, values.lastName, values.email, values.phoneNumber].some((v) => v.trim()))
    errors.form = 'Give at least a name, an email or a phone number.';
  if (values.email.trim() && !isEmailHandle(values.email)) errors.email = 'This is not an email address.';
  if (values.phoneNumber.trim() && !toE164(values.phoneNumber))
    errors.phoneNumber = 'This is not a phone number.';
  if (values.ownerEmail.trim() && !isEmailHandle(values.ownerEmail))
    errors.ownerEmail = 'This is not an email address.';
  return errors;
}

/** Create or edit a contact; the service's validation errors appear beside the field they name. */
export function ContactForm({ contact, onDone }: { contact: Contact | null; onDone(saved: boolean): void }) {
  const [values, setValues] = useState<Values>(() => initialValues(contact));
  const [errors, setErrors] = useState<Partial<Record<ContactField | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  const users = useStore(
    useShallow((s) => [...new Set(s.lines.map((l) => l.userEmail).filter((e): e is string => Boolean(e)))]),
  );

  const submit = async () => {
    const local = localErrors(values);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const initial = initialValues(contact);
    const fields: ContactInput = {};
    for (const { name } of FIELDS) {
      const value = values[name].trim();
      // Every contact has an owner: an emptied owner field keeps the current one (the service
      // refuses an empty owner email).
      if (name === 'ownerEmail' && !value) continue;
      // Editing sends only what changed; creating sends what was filled in.
      if (contact ? value !== initial[name] : value) (fields as Record<string, string>)[name] = value;
    }
    if (Object.keys(fields).length === 0) return onDone(false);
    setBusy(true);
    try {
      await saveContact(contact?.id ?? null, fields);
      onDone(true);
    } catch (error) {
      const shape = toErrorShape(error);
      const field = contactFieldOf(shape);
      setErrors(field ? { [field]: contactErrorText(shape) } : { form: shape.message });
      setBusy(false);
    }
  };

  return (
    <form
      className="form contact-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2>{contact ? `Edit ${contact.fullName || 'contact'}` : 'New contact'}</h2>
      <div className="form-grid">
        {FIELDS.map((field) => {
          const id = `contact-${field.name}`;
          const error = errors[field.name];
          return (
            <div key={field.name} className={`field${field.name === 'ownerEmail' ? ' span-2' : ''}`}>
              <label htmlFor={id}>{field.label}</label>
              <input
                id={id}
                className="input"
                type={field.type ?? 'text'}
                autoComplete={field.autoComplete ?? 'off'}
                list={field.name === 'ownerEmail' ? 'contact-owner-options' : undefined}
                value={values[field.name]}
                aria-invalid={Boolean(error)}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(e) => {
                  const raw = e.target.value;
                  const value =
                    field.name === 'phoneNumber' && /^[+\d\s().-]*$/.test(raw) ? formatAsYouType(raw) : raw;
                  setValues((v) => ({ ...v, [field.name]: value }));
                  if (error) setErrors((x) => ({ ...x, [field.name]: undefined }));
                }}
              />
              {error && (
                <span id={`${id}-error`} className="field-error">
                  {error}
                </span>
              )}
            </div>
          );
        })}
        <datalist id="contact-owner-options">
          {users.map((email) => (
            <option key={email} value={email} />
          ))}
        </datalist>
      </div>
      {errors.form && (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={() => onDone(false)}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Saving…' : contact ? 'Save changes' : 'Create contact'}
        </button>
      </div>
    </form>
  );
}
