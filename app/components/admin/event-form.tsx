import { useEffect, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { EVENT_LIMITS, type EventErrors, type EventFormFailure, type EventFormShown } from '~/lib/events';
import { Banner } from './banner';
import { Field, inputClass } from './form';
import { DescriptionField } from './description-field';

// Issue 27: the Add event / Edit event form. Works as a plain multipart post (the picture is sent
// with it, the description is a textarea of HTML); with JavaScript the description is the content
// form's TipTap editor. The server checks everything again (http/event-form.server.ts).

export const EMPTY_EVENT: EventFormShown = {
  title: '',
  summary: '',
  description: '',
  startDate: '',
  startTime: '',
  endDate: '',
  endTime: '',
  place: '',
  onlineUrl: '',
  capacity: '20',
  deadlineDate: '',
  deadlineTime: '',
  imageUrl: '',
  imageAlt: '',
  signLanguage: true,
  captioning: false,
  stepFree: false,
  registrationOpen: true,
};

const ORDER = [
  'title',
  'summary',
  'description',
  'startDate',
  'endDate',
  'place',
  'onlineUrl',
  'capacity',
  'deadlineDate',
  'imageUrl',
  'imageAlt',
] as const;
const FOCUS: Partial<Record<(typeof ORDER)[number], string>> = { imageUrl: 'imageFile' };

export function EventForm({
  initial,
  failure,
  canPublish,
  isPublished,
  timeZone,
}: {
  initial: EventFormShown;
  failure?: EventFormFailure | undefined;
  canPublish: boolean;
  isPublished: boolean;
  timeZone: string;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting';
  const errors: EventErrors = failure?.errors ?? {};
  const [imageUrl, setImageUrl] = useState(initial.imageUrl ?? '');

  useEffect(() => {
    if (!failure) return;
    const first = ORDER.find((name) => failure.errors[name]);
    if (first) document.getElementById(FOCUS[first] ?? first)?.focus();
  }, [failure]);

  const text = (id: (typeof ORDER)[number] | 'startTime' | 'endTime' | 'deadlineTime', extra: Record<string, unknown> = {}) => ({
    name: id,
    defaultValue: initial[id] ?? '',
    className: inputClass(Boolean(errors[id as keyof EventErrors])),
    ...extra,
  });

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate
      className="max-w-3xl space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
    >
      {failure && <Banner key={failure.message} type="error" message={failure.message} autoClose={false} />}
      <Field id="title" label="Title" required error={errors.title} note={`Up to ${EVENT_LIMITS.title} characters.`}>
        {(control) => <input {...control} {...text('title', { maxLength: EVENT_LIMITS.title, required: true })} />}
      </Field>
      <Field
        id="summary"
        label="Summary"
        required
        error={errors.summary}
        note="One or two sentences for the list and search engines."
      >
        {(control) => (
          <textarea {...control} rows={3} {...text('summary', { maxLength: EVENT_LIMITS.summary, required: true })} />
        )}
      </Field>
      <DescriptionField id="description" initialHtml={initial.description ?? ''} error={errors.description} />
      <fieldset className="min-w-0 space-y-4">
        <legend className="font-semibold text-slate-900">When (time zone {timeZone})</legend>
        <div className="grid min-w-0 gap-4 sm:grid-cols-2">
          <Field id="startDate" label="Start date" required error={errors.startDate}>
            {(control) => <input {...control} type="date" {...text('startDate')} />}
          </Field>
          <Field id="startTime" label="Start time" required>
            {(control) => <input {...control} type="time" {...text('startTime')} />}
          </Field>
          <Field id="endDate" label="End date" required error={errors.endDate}>
            {(control) => <input {...control} type="date" {...text('endDate')} />}
          </Field>
          <Field id="endTime" label="End time" required>
            {(control) => <input {...control} type="time" {...text('endTime')} />}
          </Field>
        </div>
      </fieldset>
      <Field id="place" label="Place" error={errors.place} note="The address or venue. Leave empty for an online-only event.">
        {(control) => <input {...control} {...text('place', { maxLength: EVENT_LIMITS.place })} />}
      </Field>
      <Field id="onlineUrl" label="Online link" error={errors.onlineUrl} note="For an online or mixed event: https://…">
        {(control) => <input {...control} type="url" {...text('onlineUrl', { maxLength: EVENT_LIMITS.onlineUrl })} />}
      </Field>
      <Field
        id="capacity"
        label="Places"
        required
        error={errors.capacity}
        note="When all are taken, people join the waiting list."
      >
        {(control) => (
          <input {...control} type="number" min={1} max={EVENT_LIMITS.capacityMax} inputMode="numeric" {...text('capacity')} />
        )}
      </Field>
      <fieldset className="min-w-0">
        <legend className="font-semibold text-slate-900">Accessibility offered</legend>
        {(
          [
            ['signLanguage', 'Sign-language interpretation'],
            ['captioning', 'Live captioning'],
            ['stepFree', 'Step-free access'],
          ] as const
        ).map(([name, label]) => (
          <label key={name} className="mt-2 flex min-h-11 items-center gap-3">
            <input type="checkbox" name={name} defaultChecked={Boolean(initial[name])} className="h-5 w-5" />
            {label}
          </label>
        ))}
      </fieldset>
      <fieldset className="min-w-0 space-y-2">
        <legend className="font-semibold text-slate-900">Registration</legend>
        <label className="flex min-h-11 items-center gap-3">
          <input type="checkbox" name="registrationOpen" defaultChecked={Boolean(initial.registrationOpen)} className="h-5 w-5" />
          Registration is open
        </label>
        <div className="grid min-w-0 gap-4 sm:grid-cols-2">
          <Field id="deadlineDate" label="Deadline date (optional)" error={errors.deadlineDate}>
            {(control) => <input {...control} type="date" {...text('deadlineDate')} />}
          </Field>
          <Field id="deadlineTime" label="Deadline time (optional)">
            {(control) => <input {...control} type="time" {...text('deadlineTime')} />}
          </Field>
        </div>
      </fieldset>
      <fieldset className="min-w-0 space-y-3">
        <legend className="font-semibold text-slate-900">Picture (optional)</legend>
        <input type="hidden" name="imageUrl" value={imageUrl} />
        {imageUrl && (
          <p className="flex flex-wrap items-center gap-3">
            <img src={imageUrl} alt="" className="h-20 w-32 rounded object-cover" />
            <button
              type="button"
              onClick={() => setImageUrl('')}
              className="min-h-11 rounded-lg border-2 border-slate-300 px-4 font-semibold"
            >
              Remove picture
            </button>
          </p>
        )}
        <Field
          id="imageFile"
          label={imageUrl ? 'Replace the picture' : 'Choose a picture'}
          error={errors.imageUrl}
          note="JPEG, PNG, GIF or WebP."
        >
          {(control) => (
            <input
              {...control}
              type="file"
              name="imageFile"
              accept="image/jpeg,image/png,image/gif,image/webp"
              className="mt-1 block w-full max-w-full"
            />
          )}
        </Field>
        <Field
          id="imageAlt"
          label="Picture description"
          error={errors.imageAlt}
          note="What the picture shows, for people who cannot see it."
        >
          {(control) => <input {...control} {...text('imageAlt', { maxLength: EVENT_LIMITS.imageAlt })} />}
        </Field>
      </fieldset>
      <div className="flex flex-wrap gap-3">
        {canPublish && (
          <button
            type="submit"
            name="intent"
            value="publish"
            disabled={saving}
            className="min-h-11 rounded-lg bg-indigo-800 px-5 py-2.5 font-semibold text-white hover:bg-indigo-900"
          >
            {isPublished ? 'Save changes' : 'Publish'}
          </button>
        )}
        {!isPublished && (
          <button
            type="submit"
            name="intent"
            value="draft"
            disabled={saving}
            className="min-h-11 rounded-lg border-2 border-indigo-800 px-5 py-2.5 font-semibold text-indigo-900 hover:bg-indigo-50"
          >
            Save draft
          </button>
        )}
        <Link
          to="/admin/events"
          className="inline-flex min-h-11 items-center px-3 font-semibold text-indigo-800 underline underline-offset-4"
        >
          Cancel
        </Link>
      </div>
    </Form>
  );
}
