import { useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { ASSIGNABLE_ROLES, ROLE_INFO, type Role } from '~/lib/permissions';
import { BIO_MAX, NAME_MAX, USER_MESSAGES, type UserFormErrors } from '~/lib/users';
import { PASSWORD_MIN } from '~/lib/auth';
import { useHydrated } from '~/lib/use-hydrated';
import { Banner } from './banner';
import { EmailField, Field, FieldError, inputClass, NewPasswordField, primaryButton, useTypedState } from './form';
import { ProfilePictureUploader } from './profile-picture-uploader';

export interface UserFormValues {
  name: string;
  email: string;
  role: Role;
  bio: string;
  profilePicture: string | null;
}

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
  const [clientError, setClientError] = useState<string | null>(null);
  const message = clientError ?? errors?.form;

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate={hydrated}
      onSubmit={(event) => {
        const data = new FormData(event.currentTarget);
        const missing =
          !String(data.get('name') ?? '').trim() ||
          !String(data.get('email') ?? '').trim() ||
          (mode === 'create' && !String(data.get('password') ?? ''));
        const short =
          mode === 'create' &&
          String(data.get('password') ?? '').length > 0 &&
          String(data.get('password') ?? '').length < PASSWORD_MIN;
        const problem = missing ? USER_MESSAGES.required : short ? USER_MESSAGES.passwordShort : null;
        setClientError(problem);
        if (problem) event.preventDefault();
      }}
      className="max-w-2xl space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
    >
      {message && <Banner key={message} type="error" message={message} autoClose={false} />}
      <Field id="name" label="Name" required error={errors?.name}>
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
            className={input(Boolean(errors?.name))}
          />
        )}
      </Field>
      <EmailField
        id="email"
        label="Email"
        required
        note={mode === 'edit' ? USER_MESSAGES.emailImmutable : undefined}
        error={errors?.email}
        autoComplete="off"
        defaultValue={values.email}
        readOnly={mode === 'edit'}
        className={input(Boolean(errors?.email))}
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
        <Field id="role" label="Role" note="See Role Information for what each role can do." error={errors?.role}>
          {(control) => (
            <select {...control} name="role" defaultValue={values.role} className={input(Boolean(errors?.role))}>
              {ASSIGNABLE_ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_INFO[role].label} ({role})
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field id="bio" label="Bio" note={`${bio.length}/${BIO_MAX}`} noteId="bio-count" error={errors?.bio}>
        {(control) => (
          <textarea
            {...control}
            name="bio"
            ref={bioRef}
            rows={3}
            maxLength={BIO_MAX}
            value={bio}
            onChange={(e) => setBio(e.target.value)}
            className={input(Boolean(errors?.bio))}
          />
        )}
      </Field>
      <ProfilePictureUploader name={name} initialUrl={values.profilePicture} />
      <FieldError id="profilePicture-error" message={errors?.profilePicture} />
      {mode === 'create' && (
        <NewPasswordField
          id="password"
          label="Password"
          required
          note="At least 6 characters. The new user can change it with the forgot-password link."
          error={errors?.password}
          className={input(Boolean(errors?.password))}
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
