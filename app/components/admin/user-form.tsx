import { useEffect, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { ASSIGNABLE_ROLES, ROLE_INFO, type Role } from '~/lib/permissions';
import { BIO_MAX, NAME_MAX, USER_MESSAGES, type UserFormErrors } from '~/lib/users';
import { PASSWORD_MIN } from '~/lib/auth';
import { useHydrated } from '~/lib/use-hydrated';
import { Banner } from './banner';
import { focusFirstError } from './form-checks';
import { EmailField, Field, FieldError, inputClass, NewPasswordField, primaryButton, useTypedState } from './form';
import { ProfilePictureUploader } from './profile-picture-uploader';

export interface UserFormValues {
  name: string;
  email: string;
  role: Role;
  bio: string;
  profilePicture: string | null;
}

/** The form's fields in the order shown; each control's id is its name. */
const ORDER = ['name', 'email', 'role', 'bio', 'password'] as const;
const FOCUS_ID = Object.fromEntries(ORDER.map((field) => [field, field])) as Record<(typeof ORDER)[number], string>;

const input = (invalid: boolean) => `${inputClass(invalid)} read-only:bg-slate-100 disabled:bg-slate-100`;

/**
 * spec §2/§5: Add New User / Edit User. `roleLocked` shows the role but does not send it (editing
 * yourself, or the super admin account). The server applies every rule again.
 */
export function UserForm({
  mode,
  values,
  errors,
  roleLocked,
  cancelTo,
}: {
  mode: 'create' | 'edit';
  values: UserFormValues;
  errors: UserFormErrors | undefined;
  roleLocked: boolean;
  cancelTo: string;
}) {
  const hydrated = useHydrated();
  const saving = useNavigation().state === 'submitting';
  // What staff typed before the script ran is kept (useTypedState).
  const [name, setName, nameRef] = useTypedState(values.name);
  const [bio, setBio, bioRef] = useTypedState(values.bio);
  const [clientError, setClientError] = useState<{ field: 'name' | 'email' | 'password'; message: string } | null>(null);
  const message = clientError?.message ?? errors?.form;
  // The field the message is about is marked and described too: on a phone the banner is far above it.
  const shown: UserFormErrors = { ...errors, ...(clientError ? { [clientError.field]: clientError.message } : {}) };
  // After the server's answer, the first field it refused has the focus (else the form keeps it).
  useEffect(() => {
    if (errors) focusFirstError(errors, ORDER, FOCUS_ID);
  }, [errors]);

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate={hydrated}
      onSubmit={(event) => {
        const data = new FormData(event.currentTarget);
        const value = (field: string) => String(data.get(field) ?? '');
        const checks = [
          { field: 'name', wrong: !value('name').trim(), message: USER_MESSAGES.required },
          { field: 'email', wrong: !value('email').trim(), message: USER_MESSAGES.required },
          { field: 'password', wrong: mode === 'create' && !value('password'), message: USER_MESSAGES.required },
          {
            field: 'password',
            wrong: mode === 'create' && value('password').length < PASSWORD_MIN,
            message: USER_MESSAGES.passwordShort,
          },
        ] as const;
        const found = checks.find((check) => check.wrong);
        const problem = found ? { field: found.field, message: found.message } : null;
        setClientError(problem);
        if (!problem) return;
        event.preventDefault();
        focusFirstError({ [problem.field]: problem.message }, ORDER, FOCUS_ID);
      }}
      className="max-w-2xl space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
    >
      {message && <Banner key={message} type="error" message={message} autoClose={false} />}
      <Field id="name" label="Name" required error={shown.name}>
        {(control) => (
          <input
            {...control}
            name="name"
            ref={nameRef}
            required
            maxLength={NAME_MAX}
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={input(Boolean(shown.name))}
          />
        )}
      </Field>
      <EmailField
        id="email"
        label="Email"
        required
        note={mode === 'edit' ? USER_MESSAGES.emailImmutable : undefined}
        error={shown.email}
        autoComplete="off"
        defaultValue={values.email}
        readOnly={mode === 'edit'}
        className={input(Boolean(shown.email))}
      />
      {roleLocked ? (
        <Field
          id="role"
          label="Role"
          note={values.role === 'SUPER_ADMIN' ? 'The super admin account keeps its role.' : 'You cannot change your own role.'}
        >
          {(control) => (
            <select {...control} disabled defaultValue={values.role} className={input(false)}>
              <option value={values.role}>
                {ROLE_INFO[values.role].label} ({values.role})
              </option>
            </select>
          )}
        </Field>
      ) : (
        <Field id="role" label="Role" note="See Role Information for what each role can do." error={shown.role}>
          {(control) => (
            <select {...control} name="role" defaultValue={values.role} className={input(Boolean(shown.role))}>
              {ASSIGNABLE_ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_INFO[role].label} ({role})
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field id="bio" label="Bio" note={`${bio.length}/${BIO_MAX}`} noteId="bio-count" error={shown.bio}>
        {(control) => (
          <textarea
            {...control}
            name="bio"
            ref={bioRef}
            rows={3}
            maxLength={BIO_MAX}
            value={bio}
            onChange={(e) => setBio(e.target.value)}
            className={input(Boolean(shown.bio))}
          />
        )}
      </Field>
      <ProfilePictureUploader name={name} initialUrl={values.profilePicture} />
      <FieldError id="profilePicture-error" message={shown.profilePicture} />
      {mode === 'create' && (
        <NewPasswordField
          id="password"
          label="Password"
          required
          note="At least 6 characters. The new user can change it with the forgot-password link."
          error={shown.password}
          className={input(Boolean(shown.password))}
        />
      )}
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={saving} className={primaryButton}>
          {saving ? 'Saving...' : mode === 'create' ? 'Create User' : 'Update User'}
        </button>
        <Link
          to={cancelTo}
          className="rounded-lg border-2 border-slate-300 px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100"
        >
          Cancel
        </Link>
      </div>
    </Form>
  );
}
