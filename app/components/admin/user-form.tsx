import { useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { ASSIGNABLE_ROLES, ROLE_INFO, type Role } from '~/lib/permissions';
import { BIO_MAX, NAME_MAX, USER_MESSAGES } from '~/lib/users';
import { PASSWORD_MIN } from '~/lib/auth';
import { useHydrated } from '~/lib/use-hydrated';
import { Banner } from './banner';
import { FieldError, inputClass } from './form';
import { ProfilePictureUploader } from './profile-picture-uploader';

export interface UserFormValues {
  name: string;
  email: string;
  role: Role;
  bio: string;
  profilePicture: string | null;
}

export type UserFormErrors = Partial<Record<'name' | 'email' | 'role' | 'password' | 'bio' | 'profilePicture' | 'form', string>>;

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
  const [name, setName] = useState(values.name);
  const [bio, setBio] = useState(values.bio);
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
      <div>
        <label htmlFor="name" className="block font-medium text-slate-900">
          Name <span aria-hidden="true">*</span>
        </label>
        <input
          id="name"
          name="name"
          required
          maxLength={NAME_MAX}
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={errors?.name ? true : undefined}
          aria-describedby={errors?.name ? 'name-error' : undefined}
          className={input(Boolean(errors?.name))}
        />
        <FieldError id="name-error" message={errors?.name} />
      </div>
      <div>
        <label htmlFor="email" className="block font-medium text-slate-900">
          Email <span aria-hidden="true">*</span>
        </label>
        <input
          id="email"
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="off"
          defaultValue={values.email}
          readOnly={mode === 'edit'}
          aria-invalid={errors?.email ? true : undefined}
          aria-describedby={mode === 'edit' ? 'email-note' : errors?.email ? 'email-error' : undefined}
          className={input(Boolean(errors?.email))}
        />
        {mode === 'edit' && (
          <p id="email-note" className="mt-1 text-sm text-slate-600">
            {USER_MESSAGES.emailImmutable}
          </p>
        )}
        <FieldError id="email-error" message={errors?.email} />
      </div>
      <div>
        <label htmlFor="role" className="block font-medium text-slate-900">
          Role
        </label>
        {roleLocked ? (
          <>
            <select id="role" disabled defaultValue={values.role} aria-describedby="role-note" className={input(false)}>
              <option value={values.role}>
                {ROLE_INFO[values.role].label} ({values.role})
              </option>
            </select>
            <p id="role-note" className="mt-1 text-sm text-slate-600">
              {values.role === 'SUPER_ADMIN' ? 'The super admin account keeps its role.' : 'You cannot change your own role.'}
            </p>
          </>
        ) : (
          <>
            <select
              id="role"
              name="role"
              defaultValue={values.role}
              aria-describedby="role-help"
              className={input(Boolean(errors?.role))}
            >
              {ASSIGNABLE_ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_INFO[role].label} ({role})
                </option>
              ))}
            </select>
            <p id="role-help" className="mt-1 text-sm text-slate-600">
              See Role Information for what each role can do.
            </p>
          </>
        )}
        <FieldError id="role-error" message={errors?.role} />
      </div>
      <div>
        <label htmlFor="bio" className="block font-medium text-slate-900">
          Bio
        </label>
        <textarea
          id="bio"
          name="bio"
          rows={3}
          maxLength={BIO_MAX}
          value={bio}
          onChange={(e) => setBio(e.target.value)}
          aria-describedby="bio-count"
          className={input(Boolean(errors?.bio))}
        />
        <p id="bio-count" className="mt-1 text-sm text-slate-600">
          {bio.length}/{BIO_MAX}
        </p>
        <FieldError id="bio-error" message={errors?.bio} />
      </div>
      <ProfilePictureUploader name={name} initialUrl={values.profilePicture} />
      <FieldError id="profilePicture-error" message={errors?.profilePicture} />
      {mode === 'create' && (
        <div>
          <label htmlFor="password" className="block font-medium text-slate-900">
            Password <span aria-hidden="true">*</span>
          </label>
          <input
            id="password"
            name="password"
            type="password"
            required
            minLength={PASSWORD_MIN}
            autoComplete="new-password"
            aria-invalid={errors?.password ? true : undefined}
            aria-describedby={errors?.password ? 'password-error' : 'password-hint'}
            className={input(Boolean(errors?.password))}
          />
          <p id="password-hint" className="mt-1 text-sm text-slate-600">
            At least 6 characters. The new user can change it with the forgot-password link.
          </p>
          <FieldError id="password-error" message={errors?.password} />
        </div>
      )}
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          disabled={saving}
          className="rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900 disabled:bg-slate-400 disabled:text-slate-900"
        >
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
